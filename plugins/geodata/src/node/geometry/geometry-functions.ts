import type { FunctionContribution } from '@werkbank/sdk/node';

/** The geometry functions of the geodata library (issue 6). */
export const geometryFunctions: FunctionContribution = {
  registerFunctions() {},
};

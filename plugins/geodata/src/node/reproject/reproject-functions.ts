import type { FunctionContribution } from '@werkbank/sdk/node';

/** The reproject functions of the geodata library (issue 6). */
export const reprojectFunctions: FunctionContribution = {
  registerFunctions() {},
};

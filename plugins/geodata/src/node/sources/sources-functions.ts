import type { FunctionContribution } from '@werkbank/sdk/node';

/** The sources functions of the geodata library (issue 6). */
export const sourcesFunctions: FunctionContribution = {
  registerFunctions() {},
};

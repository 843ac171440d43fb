import type { FunctionContribution } from '@werkbank/sdk/node';

/** The tabular functions of the geodata library (issue 6). */
export const tabularFunctions: FunctionContribution = {
  registerFunctions() {},
};

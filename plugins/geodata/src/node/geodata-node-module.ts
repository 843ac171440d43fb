import { definePlugin, FunctionContribution } from '@werkbank/sdk/node';
import { tabularFunctions } from './tabular/tabular-functions';
import { geometryFunctions } from './geometry/geometry-functions';
import { reprojectFunctions } from './reproject/reproject-functions';
import { sourcesFunctions } from './sources/sources-functions';

export default definePlugin((ctx) => {
  ctx.contribute(FunctionContribution, tabularFunctions);
  ctx.contribute(FunctionContribution, geometryFunctions);
  ctx.contribute(FunctionContribution, reprojectFunctions);
  ctx.contribute(FunctionContribution, sourcesFunctions);
});

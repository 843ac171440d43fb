import { definePlugin, FunctionContribution, NodeTranslationContribution } from '@werkbank/sdk/node';
import { basicFunctionTranslations } from './basic-functions-node-contributions';
import { stringFunctions } from './string-functions';
import { numberFunctions } from './number-functions';
import { boolFunctions } from './bool-functions';
import { frameFunctions } from './frame-functions';
import { DepotFunctions } from './depot-functions';
import { testFunctions } from './test-functions';

export default definePlugin((ctx) => {
  ctx.contribute(NodeTranslationContribution, basicFunctionTranslations);
  ctx.contribute(FunctionContribution, stringFunctions);
  ctx.contribute(FunctionContribution, numberFunctions);
  ctx.contribute(FunctionContribution, boolFunctions);
  ctx.contribute(FunctionContribution, frameFunctions);
  ctx.contribute(FunctionContribution, DepotFunctions);
  ctx.contribute(FunctionContribution, testFunctions);
});

import { definePlugin, FunctionContribution, NodeTranslationContribution } from '@werkbank/sdk/node';
import { TabularFunctions, tabularTranslations } from './tabular/tabular-functions';
import { geometryFunctions, geometryTranslations } from './geometry/geometry-functions';
import { reprojectFunctions, reprojectTranslations } from './reproject/reproject-functions';
import { SourcesFunctions, sourcesTranslations } from './sources/sources-functions';
import { vectorFunctions, vectorTranslations } from './vector/vector-functions';

export default definePlugin((ctx) => {
  ctx.contribute(FunctionContribution, TabularFunctions);
  ctx.contribute(NodeTranslationContribution, tabularTranslations);
  ctx.contribute(FunctionContribution, geometryFunctions);
  ctx.contribute(NodeTranslationContribution, geometryTranslations);
  ctx.contribute(FunctionContribution, reprojectFunctions);
  ctx.contribute(NodeTranslationContribution, reprojectTranslations);
  ctx.contribute(FunctionContribution, SourcesFunctions);
  ctx.contribute(NodeTranslationContribution, sourcesTranslations);
  ctx.contribute(FunctionContribution, vectorFunctions);
  ctx.contribute(NodeTranslationContribution, vectorTranslations);
});

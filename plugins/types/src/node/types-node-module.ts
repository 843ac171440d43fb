import { DatumTypeContribution, definePlugin, HttpRouteContribution } from '@werkbank/sdk/node';
import { coreTypeDatumTypes, TypeRoutes } from './types-node-contributions';

export default definePlugin((ctx) => {
  ctx.contribute(DatumTypeContribution, coreTypeDatumTypes);
  ctx.contribute(HttpRouteContribution, TypeRoutes);
});

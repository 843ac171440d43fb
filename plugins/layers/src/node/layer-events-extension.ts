import { ApiError, type ResourceExtension, type ResourceExtensionContribution } from '@werkbank/sdk/node';

/**
 * `/api/v1/event/?layer_id=` (spec 000 §7 list parameters; spec 001 §7 "layer events"): the feed
 * entries about one layer. The feed's own read filter still decides which entries the caller sees.
 */
export const layerEventsExtension: ResourceExtension = {
  id: 'layers.event-layer-id',
  queryParams: {
    layer_id(qb, def, value) {
      if (def.kind !== 'event')
        throw ApiError.badRequest('unknown_filter', 'errors.unknown_filter', { name: 'layer_id' }, 'layer_id');
      const id = /^\d{1,9}$/.test(value) ? Number(value) : -1;
      qb.andWhere(`t.kind = 'layer' AND t.object_id = :layerEventsId`, { layerEventsId: id });
    },
  },
};

export const layerEventsContribution: ResourceExtensionContribution = {
  registerResourceExtensions: (registry) => registry.add(layerEventsExtension),
};

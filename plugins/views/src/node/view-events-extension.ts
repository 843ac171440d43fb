import { ApiError, type ResourceExtension, type ResourceExtensionContribution } from '@werkbank/sdk/node';

/**
 * `/api/v1/event/?view_id=` (spec 002 §2 the view editor's Events tab, "eventsForView"): the feed
 * entries about one view. The feed's own read filter still decides which entries the caller sees.
 */
export const viewEventsExtension: ResourceExtension = {
  id: 'views.event-view-id',
  queryParams: {
    view_id(qb, def, value) {
      if (def.kind !== 'event')
        throw ApiError.badRequest('unknown_filter', 'errors.unknown_filter', { name: 'view_id' }, 'view_id');
      const id = /^\d{1,9}$/.test(value) ? Number(value) : -1;
      qb.andWhere(`t.kind = 'view' AND t.object_id = :viewEventsId`, { viewEventsId: id });
    },
  },
};

export const viewEventsContribution: ResourceExtensionContribution = {
  registerResourceExtensions: (registry) => registry.add(viewEventsExtension),
};

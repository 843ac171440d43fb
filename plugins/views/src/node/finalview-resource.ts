import { ApiError, type ResourceDefinition, type ResourceRequest, type Row } from '@werkbank/sdk/node';
import { refuseTakenSlug } from './view-rows';
import { FINALVIEW_FIELDS, type FinalviewPins, type FrozenView } from '../common/finalview-fields';

/** The copy a create-finalview call made, handed to the create hook of its transaction. */
interface Freezing {
  view: Row;
  frozen: FrozenView;
  pins: FinalviewPins;
}

const freezing = new WeakMap<ResourceRequest, Freezing>();

/**
 * Creates the frozen view in `w` (the transaction's request) from the copy made outside it: only
 * this path creates frozen views (a generic POST has no view to copy from).
 */
export async function createFinalview(w: ResourceRequest, def: ResourceDefinition, slug: string, copy: Freezing) {
  freezing.set(w, copy);
  try {
    return await w.services.create(def, { slug }, w);
  } finally {
    freezing.delete(w);
  }
}

/**
 * Frozen views (spec 000 §5, decision 0086): a view's copy with its layers pinned to the moments
 * approved when it was frozen. Made by `GET /switchboard/create-finalview/?slug=&view=`; the slug is
 * the one field its writers change. Readable like its view was: public ones by every signed-in user.
 */
export const finalviewResource: ResourceDefinition = {
  id: 'views.finalview',
  kind: 'finalview',
  table: 'views_finalview',
  label: { de: 'die eingefrorene Ansicht', en: 'frozen view' },
  defaultOrder: 'name',
  ownerColumn: 'owner_id',
  objectPermissions: { read: 'read_finalview', write: 'write_finalview' },
  publicColumn: 'public',
  description: 'Frozen views: copies of views whose layers stay at the moments approved when they were frozen.',
  fields: FINALVIEW_FIELDS,
  hooks: {
    async beforeCreate(values, req) {
      const copy = freezing.get(req);
      if (!copy) throw new ApiError(405, 'finalview_create', 'views:errors.finalview_create', {});
      await refuseTakenSlug(req, 'finalview', values.slug);
      Object.assign(values, {
        name: copy.frozen.name,
        view_id: copy.view.id,
        public: copy.view.public === true,
        frozen: JSON.stringify(copy.frozen),
        pins: JSON.stringify(copy.pins),
      });
    },
    async beforeUpdate(row, changes, req) {
      await refuseTakenSlug(req, 'finalview', changes.slug, row.id);
      changes.modified = new Date();
    },
  },
};

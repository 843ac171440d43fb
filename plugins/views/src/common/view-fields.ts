import { defineFields } from '@werkbank/sdk';
import { isValidSlug } from '@werkbank/plugin-layers/api';
import { SLUG_MAX } from './view-rules';

/** The fields of `/api/v1/view/` (spec 002 §3), declared once for both sides (decision 0024). */
export const VIEW_FIELDS = defineFields({
  name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
  /** The second title. */
  subline: { type: 'string', default: '', maxLength: 500, search: true },
  description: { type: 'text', default: '', search: true },
  slug: {
    type: 'string',
    default: '',
    maxLength: SLUG_MAX,
    search: true,
    order: true,
    filter: true,
    validate: (v) => (v === '' || isValidSlug(v) ? undefined : 'views:errors.slug'),
  },
  /** PUBLIC (true) or INTERNAL ONLY; only holders of publish_view may change it (spec 002 §4). */
  public: { type: 'bool', default: false, filter: true },
  /**
   * The preview image's address: an external one, or the view's own image address once an image was
   * uploaded (decision 0092; see view-resource.ts for writes).
   */
  image: { type: 'string', default: '', maxLength: 2000 },
  /** The uploaded image's blob (sha256), size and type; not in replies. */
  image_blob: { type: 'string', hidden: true, readOnly: true, nullable: true },
  image_size: { type: 'int', hidden: true, readOnly: true },
  image_mime: { type: 'string', hidden: true, readOnly: true },
  /** An explicit start position (CameraPosition), null: 'Automatic'. */
  home: { type: 'json', nullable: true },
  /** The layer tree (ViewLayerGroup); checked in the resource's hooks. */
  layergroup: { type: 'json', default: {} },
  /** The POI tree (PoiGroup). */
  poigroup: { type: 'json', default: {} },
  /** ViewConfig: `viewer.start_state` and the tools' settings. */
  config: { type: 'json', default: {} },
  user: { type: 'ref', column: 'owner_id', refKind: 'user', readOnly: true, nullable: true },
  created: { type: 'datetime', readOnly: true, order: true },
  modified: { type: 'datetime', readOnly: true, order: true },
});

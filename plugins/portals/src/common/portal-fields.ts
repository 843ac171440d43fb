import { defineFields } from '@werkbank/sdk';
import { isValidSlug } from '@werkbank/plugin-layers/api';

/** The fields of `/api/v1/portal/` (spec 002 §3), declared once for both sides (decision 0024). */
export const PORTAL_FIELDS = defineFields({
  name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
  slug: {
    type: 'string',
    default: '',
    maxLength: 100,
    search: true,
    order: true,
    filter: true,
    validate: (v) => (v === '' || isValidSlug(v) ? undefined : 'portals:errors.slug'),
  },
  /** The advanced settings: an object of the author's keys and values. */
  attr: { type: 'json', default: {} },
  /** PUBLIC (true) or INTERNAL ONLY; only holders of publish_view may change it (spec 002 §4). */
  public: { type: 'bool', default: false, filter: true },
  /** PortalLayer[] in page order; checked in the resource's hooks. */
  layers: { type: 'json', default: [] },
  /** PortalView[] in page order. */
  views: { type: 'json', default: [] },
  user: { type: 'ref', column: 'owner_id', refKind: 'user', readOnly: true, nullable: true },
  created: { type: 'datetime', readOnly: true, order: true },
  modified: { type: 'datetime', readOnly: true, order: true },
});

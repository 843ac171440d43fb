import { defineFields } from '@werkbank/sdk';
import { isValidSlug } from '@werkbank/plugin-layers/api';
import { SLUG_MAX } from './view-rules';

/**
 * The fields of `/api/v1/finalview/` (spec 000 §5, 002 §3): the slug (its entry point name) is the
 * only field an author changes; the rest is the copy made when the view was frozen.
 */
export const FINALVIEW_FIELDS = defineFields({
  slug: {
    type: 'string',
    required: true,
    maxLength: SLUG_MAX,
    search: true,
    order: true,
    filter: true,
    validate: (v) => (isValidSlug(v) ? undefined : 'views:errors.slug'),
  },
  /** The view's name when it was frozen. */
  name: { type: 'string', readOnly: true, search: true, order: true },
  /** The view it was frozen from; null once that view is deleted. */
  view: { type: 'ref', column: 'view_id', refKind: 'view', refPath: '/api/v1/view/', readOnly: true, nullable: true },
  /** The view's publication status when it was frozen. */
  public: { type: 'bool', readOnly: true, filter: true },
  /** FrozenView: the view's settings, trees, configuration and translations as they were. */
  frozen: { type: 'json', readOnly: true },
  /** FinalviewPins: per layer its revision and the approved moment of each pile's depot. */
  pins: { type: 'json', readOnly: true },
  user: { type: 'ref', column: 'owner_id', refKind: 'user', readOnly: true, nullable: true },
  created: { type: 'datetime', readOnly: true, order: true },
  modified: { type: 'datetime', readOnly: true, order: true },
});

/** What a frozen view keeps of its view. */
export interface FrozenView {
  name: string;
  subline: string;
  description: string;
  image: string;
  home: unknown;
  layergroup: unknown;
  poigroup: unknown;
  config: unknown;
  translations: { key: string; values: Record<string, string> }[];
}

/**
 * Per layer id: the layer's revision and, per depot of its piles, the moment approved when the view
 * was frozen (null: none was). Layers the author could not read then are missing.
 */
export type FinalviewPins = Record<string, { revision: number; moments: Record<string, number | null> }>;

export const CREATE_FINALVIEW_PATH = '/switchboard/create-finalview/';

import type { Layer } from '../common/layers-api';

/** A layer as the server replies it (an open record for the fake client). */
export type WireLayer = Layer & Record<string, unknown>;

/** A feature layer owned by user 1 as the server replies it, with every field; `fields` override. */
export const wireLayer = (id: number, fields: Partial<WireLayer> = {}): WireLayer =>
  ({
    id,
    resource_uri: `/api/v1/layer/${id}/`,
    revision: 1,
    name: `Layer ${id}`,
    slug: '',
    type: 'feature',
    attr: {},
    layerpiles: [],
    permissions: [],
    legend: '',
    description_title: '',
    description: '',
    public: false,
    selection_title: '',
    selection_contact: '',
    selection_image: '',
    selection_fields: [],
    attribute_filters: [],
    time_min: null,
    time_max: null,
    metadata: null,
    style: null,
    tile_settings: null,
    tile_archive: null,
    style_datum: null,
    bbox: null,
    persistent_size: 0,
    persistent_size_modified: null,
    user: '/api/v1/user/1/',
    owner: '/api/v1/user/1/',
    favored: false,
    access: ['read', 'write'],
    created: '2026-11-27T00:00:00Z',
    modified: '2026-11-27T00:00:00Z',
    ...fields,
  }) as WireLayer;

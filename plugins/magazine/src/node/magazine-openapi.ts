/** OpenAPI paths of the Magazine's own routes (docs/api.md "The Magazine"). */
type Op = { summary: string; responses: Record<number, { description: string }>; method?: string };

const idParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const op = (summary: string, codes: number[] = [200]) => ({
  tags: ['depot'],
  summary,
  responses: Object.fromEntries(codes.map((c) => [c, { description: c < 300 ? 'OK' : 'Error' }])) as Op['responses'],
});

const query = (name: string, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'query',
  description,
  schema,
});
const BBOX = query(
  'bbox',
  'Only datums whose extent intersects this window: west,south,east,north in degrees (WGS 84); west > east crosses the antimeridian. Datums without a location are never in a window.',
  { type: 'string', pattern: '^-?[0-9.]+,-?[0-9.]+,-?[0-9.]+,-?[0-9.]+$', example: '7,50,8,51' },
);
const MOMENT = query('moment', 'A moment of the depot by id, or `approved` for its newest approved one; default: the head.');
const AFTER = query('after', 'Keyset paging: the page starts behind this datum index (meta.next_after of the page before).', {
  type: 'integer',
  minimum: 0,
});
const FORMAT = query(
  'format',
  'geojson (a FeatureCollection; depots of features, the default there) or ndjson (one datum per line; any depot, the default otherwise).',
  {
    type: 'string',
    enum: ['geojson', 'ndjson'],
  },
);
const streamed = (summary: string) => ({
  ...op(summary, [200, 400, 404, 409]),
  responses: {
    200: {
      description: 'The datums in index order, written as they are read',
      content: { 'application/geo+json': { schema: { type: 'object' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
    },
    400: { description: 'Error' },
    404: { description: 'Error' },
    409: { description: 'Error' },
  },
});

export const datumOpenApi: Record<string, unknown> = {
  '/api/v1/datum/by-depot/{depot}/': {
    parameters: [idParam('depot')],
    get: {
      ...op('Datums of a depot at its head or ?moment=, optionally in a ?bbox= window', [200, 400, 404, 409]),
      parameters: [MOMENT, BBOX, AFTER],
    },
  },
  '/api/v1/datum/by-depot/{depot}/stream/': {
    parameters: [idParam('depot')],
    get: {
      ...streamed('All datums of a depot at its head or ?moment= as one stream (GeoJSON or NDJSON)'),
      parameters: [FORMAT, MOMENT, BBOX],
    },
  },
  '/api/v1/datum/by-moment/{moment}/': {
    parameters: [idParam('moment')],
    get: { ...op('Datums as they were at a moment, optionally in a ?bbox= window', [200, 400, 404]), parameters: [BBOX, AFTER] },
  },
  '/api/v1/datum/by-moment/{moment}/stream/': {
    parameters: [idParam('moment')],
    get: { ...streamed('All datums as they were at a moment as one stream (GeoJSON or NDJSON)'), parameters: [FORMAT, BBOX] },
  },
  '/api/v1/datum/by-pile/{pile}/': {
    parameters: [idParam('pile')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
  '/api/v1/datum/create-in-depot/{depot}/': {
    parameters: [idParam('depot')],
    get: op('A template for a new datum of the depot’s type; optional moment_id and template (a datum to start from)'),
    post: op('Create a datum (or {objects}) in the open moment; optional moment_id', [201, 400, 403, 409]),
  },
  '/api/v1/datum/create-in-pile/{pile}/': {
    parameters: [idParam('pile')],
    get: op(
      'A template for a new datum in the depot of a layer’s pile (answered with the layers plugin, 501 without it); optional moment_id and template',
      [200, 400, 404, 501],
    ),
  },
  '/api/v1/datum/{ref}/': {
    parameters: [idParam('ref')],
    get: op('A datum at the head ({index}) or at a moment ({index}@{moment})', [200, 404]),
    patch: op('Change a datum in the open moment; optional moment_id and version', [200, 400, 403, 409]),
    delete: op('Delete a datum in the open moment; optional moment_id', [200, 403, 409]),
  },
  '/api/v1/datum/{ref}/download/': {
    parameters: [idParam('ref')],
    get: op('A file datum’s bytes (Range supported)', [200, 206, 404, 416]),
  },
  '/api/v1/datum/{ref}/embed/': {
    parameters: [idParam('ref')],
    get: op('A file datum’s bytes for embedding', [200, 206, 404, 416]),
  },
};

export const momentOpenApi: Record<string, unknown> = {
  '/api/v1/moment/': {
    get: op(
      'Moments of ?depot_id=, newest first; offset and limit page, or after= (the cursor of meta.next); count=false skips total_count',
      [200, 400, 404],
    ),
  },
  '/api/v1/moment/{id}/': {
    parameters: [idParam('id')],
    get: op('One moment', [200, 404]),
    delete: op('Delete a moment and the data only it held', [200, 403, 404]),
  },
  '/api/v1/moment/{id}/approve/': { parameters: [idParam('id')], post: op('Approve a moment', [200, 403, 404]) },
  '/api/v1/moment/{id}/restore/': {
    parameters: [idParam('id')],
    post: op('Restore a moment as a new open moment', [200, 403, 404]),
  },
  '/api/v1/moment/{id}/finalize/': {
    parameters: [idParam('id')],
    get: {
      ...op('Close the open head; returns the new moment (state-changing GET: needs the X-CSRFToken header)', [200, 409]),
      'x-changes-state': true,
    },
    post: op('Close the open head; returns the new moment', [200, 409]),
  },
  '/api/v1/moment/{id}/show_as_layer/': {
    parameters: [idParam('id')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
  '/api/v1/depot/{id}/show_as_layer/': {
    parameters: [idParam('id')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
  '/api/v1/depot/{id}/edit_as_layer/': {
    parameters: [idParam('id')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
  '/api/v1/datum/{id}/edit_as_layer/': {
    parameters: [idParam('id')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
  '/api/v1/moment/{id}/edit_as_layer/': {
    parameters: [idParam('id')],
    get: op('A layer call, answered by the layers plugin (501 without it)', [200, 302, 501]),
  },
};

export const depotOpenApi: Record<string, unknown> = {
  '/api/v1/depotfoldertree/': { get: op('Every readable depot folder as a tree') },
  '/api/v1/depot/by-type/{type}/': { parameters: [idParam('type')], get: op('Depots of a type or a type deriving from it') },
};

export const uploadOpenApi: Record<string, unknown> = {
  '/magazine/upload-reset/': { post: op('Start an upload batch into a file depot', [200, 400, 403, 404]) },
  '/magazine/upload-file/{upload}/': {
    parameters: [idParam('upload')],
    post: op('Upload one file (multipart: path, file)', [201, 400, 404, 409, 413]),
  },
  '/magazine/upload-status/{upload}/': { parameters: [idParam('upload')], get: op('Statuses of an upload batch', [200, 404]) },
};

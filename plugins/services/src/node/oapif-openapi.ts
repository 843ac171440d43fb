/**
 * The API definition of an OGC API – Features landing page (the `service-desc` link, conformance
 * class OpenAPI 3.0): the paths the service answers, their parameters and responses.
 */
import { CONFORMANCE } from './oapif-documents';
import { crsList, CRS84 } from './oapif-crs';

const format = { name: 'f', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'html'] } };
const apikey = {
  name: 'apikey',
  in: 'query',
  required: false,
  description: 'API key with the layer realm (for internal layers; also accepted as header).',
  schema: { type: 'string' },
};
const collectionId = { name: 'collectionId', in: 'path', required: true, schema: { type: 'string' } };
const featureId = { name: 'featureId', in: 'path', required: true, schema: { type: 'string' } };
const crs = {
  name: 'crs',
  in: 'query',
  required: false,
  schema: { type: 'string', format: 'uri', enum: crsList(), default: CRS84 },
};
const itemParams = [
  collectionId,
  {
    name: 'limit',
    in: 'query',
    required: false,
    style: 'form',
    explode: false,
    schema: { type: 'integer', minimum: 1, maximum: 10000, default: 10 },
  },
  { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
  {
    name: 'bbox',
    in: 'query',
    required: false,
    style: 'form',
    explode: false,
    schema: { type: 'array', minItems: 4, maxItems: 6, items: { type: 'number' } },
  },
  { name: 'bbox-crs', in: 'query', required: false, schema: { type: 'string', format: 'uri', enum: crsList(), default: CRS84 } },
  { name: 'datetime', in: 'query', required: false, style: 'form', explode: false, schema: { type: 'string' } },
  {
    name: 'properties',
    in: 'query',
    required: false,
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string' } },
  },
  crs,
  format,
  apikey,
];

const exception = {
  description: 'An error: code and description',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['code'],
        properties: { code: { type: 'string' }, description: { type: 'string' } },
      },
    },
  },
};

function ok(description: string, types: string[]): Record<string, unknown> {
  return { description, content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'object' } }])) };
}

/** The OpenAPI 3.0 document of a landing page at `base` (absolute, without the final slash). */
export function openapiDocument(base: string, title: string): Record<string, unknown> {
  const errors = { '400': exception, '404': exception };
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0', description: `OGC API - Features. Conformance: ${CONFORMANCE.join(', ')}` },
    servers: [{ url: base }],
    paths: {
      '/': {
        get: {
          operationId: 'getLandingPage',
          parameters: [format, apikey],
          responses: { '200': ok('Landing page', ['application/json', 'text/html']), ...errors },
        },
      },
      '/conformance': {
        get: {
          operationId: 'getConformance',
          parameters: [format, apikey],
          responses: { '200': ok('Conformance classes', ['application/json', 'text/html']), ...errors },
        },
      },
      '/collections': {
        get: {
          operationId: 'getCollections',
          parameters: [format, apikey],
          responses: { '200': ok('Collections', ['application/json', 'text/html']), ...errors },
        },
      },
      '/collections/{collectionId}': {
        get: {
          operationId: 'describeCollection',
          parameters: [collectionId, format, apikey],
          responses: { '200': ok('Collection', ['application/json', 'text/html']), ...errors },
        },
      },
      '/collections/{collectionId}/items': {
        get: {
          operationId: 'getFeatures',
          parameters: itemParams,
          responses: { '200': ok('Features', ['application/geo+json', 'text/html']), ...errors },
        },
      },
      '/collections/{collectionId}/items/{featureId}': {
        get: {
          operationId: 'getFeature',
          parameters: [collectionId, featureId, crs, format, apikey],
          responses: { '200': ok('Feature', ['application/geo+json', 'text/html']), ...errors },
        },
      },
    },
  };
}

import type { ResourceDefinition, FieldSpec } from '@werkbank/sdk/node';
import { basePath } from '../resources/field-codec';

const schemaOf = (f: FieldSpec): Record<string, unknown> => {
  const base: Record<string, unknown> = {
    string: { type: 'string' },
    text: { type: 'string' },
    int: { type: 'integer' },
    number: { type: 'number' },
    bool: { type: 'boolean' },
    datetime: { type: 'string', format: 'date-time' },
    json: {},
    ref: { type: 'string', description: `address of a ${f.refKind}` },
  }[f.type] as Record<string, unknown>;
  return {
    ...base,
    ...(f.enum ? { enum: f.enum } : {}),
    ...(f.maxLength ? { maxLength: f.maxLength } : {}),
    ...(f.nullable ? { nullable: true } : {}),
    ...(f.readOnly ? { readOnly: true } : {}),
  };
};

/**
 * OpenAPI 3.0 description generated from the resource definitions (DESIGN §3). A GET that changes
 * state (spec 000 §7: favor, unfavor, inform, finalize, switchboard create) carries
 * `x-changes-state: true` and has a POST form beside it (docs/api.md "State-changing GETs").
 */
export function buildOpenApi(resources: ResourceDefinition[], extraPaths: Record<string, unknown>): unknown {
  const paths: Record<string, unknown> = { ...extraPaths };
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      properties: {
        status: { type: 'string', enum: ['error'] },
        reason: { type: 'string' },
        code: { type: 'string' },
        field: { type: 'string' },
      },
    },
    Meta: {
      type: 'object',
      properties: {
        offset: {
          type: 'integer',
          nullable: true,
          description: 'Where the page starts in the list; null on a page asked behind a cursor (`after`).',
        },
        limit: { type: 'integer' },
        total_count: {
          type: 'integer',
          nullable: true,
          description:
            'Objects in the whole list (exact; its cost is the `count` entry of the Server-Timing header). ' +
            'Null when asked with `count=false`.',
        },
        next: {
          type: 'string',
          nullable: true,
          description:
            'Address of the next page: the same query behind this page’s last object (`after=<cursor>`). ' +
            'Null on the last page.',
        },
      },
    },
  };
  const err = { description: 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  for (const def of resources) {
    const name = def.kind;
    const visible = Object.entries(def.fields).filter(([, f]) => !f.hidden);
    schemas[name] = {
      type: 'object',
      properties: {
        id: { type: 'integer', readOnly: true },
        resource_uri: { type: 'string', readOnly: true },
        ...Object.fromEntries(visible.map(([n, f]) => [n, schemaOf(f)])),
        favored: { type: 'boolean', readOnly: true },
        ...(def.objectPermissions ? { permissions: { type: 'array', items: { type: 'object' } } } : {}),
      },
    };
    const ref = { $ref: `#/components/schemas/${name}` };
    const listParams = [
      {
        name: 'offset',
        in: 'query',
        description: 'Position of the first object, for jumps; not together with `after`.',
        schema: { type: 'integer', minimum: 0 },
      },
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 20 } },
      {
        name: 'after',
        in: 'query',
        description:
          'Opaque cursor from `meta.next`: the page starts behind that object, at the same cost at any depth. ' +
          'Only valid for the order it was made for; a changed or foreign cursor is 400 `invalid_cursor`.',
        schema: { type: 'string' },
      },
      {
        name: 'count',
        in: 'query',
        description:
          '`false` skips `total_count` (null in the reply), e.g. for the pages after the first one of an infinite scroll.',
        schema: { type: 'boolean', default: true },
      },
      { name: 'q', in: 'query', schema: { type: 'string' } },
      {
        name: 'order_by',
        in: 'query',
        schema: {
          type: 'string',
          enum: Object.entries(def.fields)
            .filter(([, f]) => f.order)
            .flatMap(([n]) => [n, `-${n}`]),
        },
      },
      ...(def.namedFilters
        ? [{ name: 'filter', in: 'query', schema: { type: 'string', enum: Object.keys(def.namedFilters) } }]
        : []),
      ...Object.entries(def.fields)
        .filter(([, f]) => f.filter)
        .map(([n, f]) => ({ name: n, in: 'query', schema: schemaOf(f) })),
    ];
    const base = basePath(def);
    const tag = [name];
    paths[base] = {
      get: {
        tags: tag,
        summary: `List ${name} objects`,
        description: def.description,
        parameters: listParams,
        responses: {
          200: {
            description: 'A page',
            headers: {
              'Server-Timing': {
                description: 'Milliseconds the exact count (`count`) and the page (`page`) took.',
                schema: { type: 'string' },
              },
            },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { objects: { type: 'array', items: ref }, meta: { $ref: '#/components/schemas/Meta' } },
                },
              },
            },
          },
          400: err,
          403: err,
        },
      },
      ...(def.readOnly
        ? {}
        : {
            post: {
              tags: tag,
              summary: `Create a ${name}`,
              requestBody: { content: { 'application/json': { schema: ref } } },
              responses: {
                201: { description: 'Created', content: { 'application/json': { schema: ref } } },
                400: err,
                403: err,
              },
            },
          }),
    };
    const idParam = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
    paths[`${base}{id}/`] = {
      parameters: idParam,
      get: {
        tags: tag,
        summary: `One ${name}`,
        responses: { 200: { description: 'The object', content: { 'application/json': { schema: ref } } }, 404: err },
      },
      ...(def.readOnly
        ? {}
        : {
            patch: {
              tags: tag,
              summary: `Change a ${name}`,
              requestBody: { content: { 'application/json': { schema: ref } } },
              responses: { 200: { description: 'Changed' }, 400: err, 403: err, 404: err },
            },
            delete: {
              tags: tag,
              summary: `Delete a ${name}`,
              responses: { 204: { description: 'Deleted' }, 403: err, 404: err },
            },
          }),
    };
    for (const [action, summary] of [
      ['favor', 'Favour'],
      ['unfavor', 'Unfavour'],
    ]) {
      const operation = { tags: tag, summary, responses: { 200: { description: 'ok' }, 403: err, 404: err } };
      paths[`${base}{id}/${action}/`] = {
        parameters: idParam,
        get: { ...operation, summary: `${summary} (state-changing GET: needs the X-CSRFToken header)`, 'x-changes-state': true },
        post: operation,
      };
    }
    paths[`${base}{id}/contextview/`] = {
      parameters: idParam,
      get: { tags: tag, summary: 'Related objects', responses: { 200: { description: 'type, relations, objects' }, 404: err } },
    };
    for (const a of def.actions ?? []) {
      const p = a.detail ? `${base}{id}/${a.name}/` : `${base}${a.name}/`;
      paths[p] = {
        ...(a.detail ? { parameters: idParam } : {}),
        [a.method.toLowerCase()]: {
          tags: tag,
          summary: a.name,
          responses: { 200: { description: 'ok' }, 400: err, 403: err, 404: err },
        },
      };
    }
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Werkbank API', version: '1', description: 'Generated from the resource definitions. See docs/api.md.' },
    components: {
      schemas,
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
        apiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'ApiKey <key>' },
      },
    },
    security: [{ session: [] }, { apiKey: [] }],
    paths,
  };
}

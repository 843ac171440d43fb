/** OpenAPI paths of the layers plugin's own routes (the layer resource is described by the resource layer). */
const op = (summary: string, codes: number[] = [200, 400, 404]) => ({
  tags: ['layer'],
  summary,
  responses: Object.fromEntries(codes.map((c) => [c, { description: c < 300 ? 'OK' : 'Error' }])),
});
const layerQuery = { name: 'layer', in: 'query', required: true, schema: { type: 'string' } };

export const layerOpenApi: Record<string, unknown> = {
  '/api/v1/layer/create_from_template/': {
    post: {
      ...op(
        'Creates a layer from a layer template (template: a layertemplate datum) or a layer (template_layer); the body gives its own fields',
        [201, 400, 404],
      ),
      parameters: [
        { name: 'template', in: 'query', schema: { type: 'string' } },
        { name: 'template_layer', in: 'query', schema: { type: 'string' } },
      ],
    },
  },
  '/api/v1/pile/{id}/': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: op('One layerpile: its depot, name, content type, size, active'),
  },
  '/api/v2/backend/layer-attributes': {
    get: { ...op("The union of the layer's piles' feature properties with their types"), parameters: [layerQuery] },
  },
  '/api/v2/backend/layer-attribute-values': {
    get: {
      ...op("Values of one attribute over the layer's piles (unique=true: each once)"),
      parameters: [
        layerQuery,
        { name: 'attribute', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'unique', in: 'query', schema: { type: 'string' } },
      ],
    },
  },
  '/api/v1/layer/{id}/download.xml': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: op(
      "The layer's metadata as ISO 19139 XML (title, abstract, extent, reference system, keywords, contact, services)",
      [200, 403, 404],
    ),
  },
  '/api/v1/layer/{id}/effective_style/': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: op(
      'The style the layer is drawn with (decision 0068): the linked style datum at its depot’s latest approved moment (else its head), else the layer’s own style, else the default',
      [200, 404],
    ),
  },
  '/api/v1/layer/{id}/save_style/': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    post: {
      ...op(
        'Writes a style into a style depot through the Magazine (a new version of `datum`, or a new datum of `depot` named `name`); `link: true` links it to the layer',
        [200, 400, 403, 404, 409],
      ),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['style'],
              properties: {
                style: { type: 'object' },
                datum: { type: 'string' },
                depot: { type: 'string' },
                name: { type: 'string' },
                link: { type: 'boolean' },
                moment_id: { type: 'integer' },
                version: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
  '/api/v1/layer/{id}/legend/': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    post: op(
      'Uploads the legend (multipart, one `file` part: a PNG of at most 1 MiB); answers its address, width, height, alpha and the warnings (width outside 130–140 px, no transparency)',
      [200, 400, 403, 404, 413],
    ),
    delete: op('Removes the legend', [204, 403, 404]),
  },
  '/api/v1/layer/{id}/legend.png': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: op('The uploaded legend (PNG) to readers of the layer, and without signing in for public layers', [200, 304, 401, 404]),
  },
  '/api/v2/metadata/': {
    get: {
      ...op(
        'The typed metadata of the object at `resource` (a layer or depot address), as `/api/v2/metadata/{kind}/{id}/` answers it',
        [200, 400, 403, 404],
      ),
      parameters: [{ name: 'resource', in: 'query', required: true, schema: { type: 'string' } }],
    },
  },
  '/api/v2/metadata/{kind}/{id}/': {
    parameters: [
      { name: 'kind', in: 'path', required: true, schema: { type: 'string', enum: ['layer', 'depot'] } },
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
    ],
    get: op(
      'Typed metadata of a layer or depot: {resource_uri, resource, kind, name, values: [{attributetype, value}], access, download}',
      [200, 403, 404],
    ),
    put: op(
      'Replaces the values ({values: [{attributetype, value}]}; empty ones dropped) with the object’s write permission',
      [200, 400, 403, 404],
    ),
    patch: op('As PUT', [200, 400, 403, 404]),
  },
  '/api/v1/depot/{id}/download.xml': {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
    get: op(
      "The depot's metadata as ISO 19139 XML (title, abstract, extent, reference system, keywords, contact)",
      [200, 403, 404],
    ),
  },
};

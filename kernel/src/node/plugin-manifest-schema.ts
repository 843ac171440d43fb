/**
 * JSON Schema of the `werkbank` entry of a plugin's package.json (the plugin manifest). Discovery
 * refuses a package whose entry does not match it, naming the package and the field.
 */
export const PLUGIN_MANIFEST_SCHEMA = {
  $id: 'https://werkbank.dev/schemas/plugin-manifest.json',
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9]*(-[a-z0-9]+)*$', maxLength: 64 },
    requires: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, uniqueItems: true },
    optional: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, uniqueItems: true },
    components: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' }, uniqueItems: true },
    implements: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' }, uniqueItems: true },
    browser: { type: 'string', pattern: '^(?!/)(?!.*\\.\\.).+\\.(ts|tsx|js|mjs)$' },
    node: { type: 'string', pattern: '^(?!/)(?!.*\\.\\.).+\\.(ts|js|mjs)$' },
    viewer: { type: 'string', pattern: '^(?!/)(?!.*\\.\\.).+\\.(ts|tsx|js|mjs)$' },
    title: { $ref: '#/$defs/texts' },
    summary: { $ref: '#/$defs/texts' },
    example: { type: 'boolean' },
  },
  $defs: {
    texts: {
      type: 'object',
      required: ['de', 'en'],
      additionalProperties: false,
      properties: { de: { type: 'string', minLength: 1 }, en: { type: 'string', minLength: 1 } },
    },
  },
} as const;

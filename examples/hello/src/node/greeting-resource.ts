// #region resource
import type { ResourceDefinition } from '@werkbank/sdk/node';

const shouting = (v: unknown) =>
  typeof v === 'string' && v.length > 3 && v === v.toUpperCase() && /[A-Z]/.test(v) ? 'hello:errors.shout' : undefined;

/** Greetings: owned objects with object permissions, taggable — the example of a resource. */
export const greetingResource: ResourceDefinition = {
  id: 'hello.greeting',
  kind: 'greeting',
  table: 'hello_greeting',
  label: { de: 'den Gruß', en: 'greeting' },
  defaultOrder: '-created',
  ownerColumn: 'owner_id',
  objectPermissions: { read: 'read_greeting', write: 'write_greeting' },
  taggable: true,
  description: 'Greetings of the hello example plugin.',
  fields: {
    name: { type: 'string', required: true, maxLength: 200, search: true, order: true },
    message: { type: 'text', default: '', search: true, validate: shouting },
    created: { type: 'datetime', readOnly: true, order: true },
  },
};
// #endregion resource

import { defineFields, type WireObject } from '@werkbank/sdk';

export const TAGS_PATH = '/api/v2/backend/tags/';
export const TAG_INTENTS = ['system', 'user'] as const;
export const DEFAULT_TAG_COLOR = '#2d72d2';
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** The fields of a tag (spec 000 §3 "Tag"): the resource, the OpenAPI document and the Tag type derive from them. */
export const TAG_FIELDS = defineFields({
  name: { type: 'string', required: true, maxLength: 100, search: true, order: true, filter: true },
  color: {
    type: 'string',
    default: DEFAULT_TAG_COLOR,
    validate: (v) => (typeof v === 'string' && HEX_COLOR.test(v) ? undefined : 'tags:errors.color'),
  },
  icon: { type: 'string', maxLength: 50, default: 'tag' },
  intent: { type: 'string', enum: TAG_INTENTS, createOnly: true, default: 'user', filter: true, order: true },
  user: { type: 'ref', column: 'created_by', refKind: 'user', readOnly: true, nullable: true, filter: true },
  created: { type: 'datetime', readOnly: true, order: true },
});

/** A tag as the API returns it, with the number of objects of each kind that carry it. */
export type Tag = WireObject<typeof TAG_FIELDS> & { counts: Record<string, number> };

/** Icons offered in the tag editor (Blueprint icon names). */
export const TAG_ICONS = [
  'tag',
  'star',
  'flag',
  'bookmark',
  'map',
  'globe',
  'layers',
  'database',
  'flow-branch',
  'lock',
  'people',
  'time',
  'warning-sign',
  'tick-circle',
  'heart',
  'lightbulb',
] as const;

/**
 * spec 000 §6: only superusers edit or delete user-intent tags; system tags are never edited or
 * deleted. Returns the translation key of the refusal, or undefined when allowed.
 */
export function tagChangeRefusal(intent: string, isSuperuser: boolean): string | undefined {
  if (intent === 'system') return 'tags:errors.system_locked';
  if (!isSuperuser) return 'tags:errors.superuser_only';
  return undefined;
}

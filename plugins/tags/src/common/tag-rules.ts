/** A tag as the API returns it (spec 000 §3 "Tag"). */
export interface Tag {
  id: number;
  resource_uri: string;
  name: string;
  color: string;
  icon: string;
  intent: 'system' | 'user';
  counts: Record<string, number>;
}

export const TAGS_PATH = '/api/v2/backend/tags/';
export const TAG_INTENTS = ['system', 'user'] as const;
export const DEFAULT_TAG_COLOR = '#2d72d2';
export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

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

import i18next, { type i18n } from 'i18next';
import { Registry } from './registry';

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export type Messages = { [key: string]: string | Messages };

/** A plugin's texts in both languages under one namespace (usually the plugin id). */
export interface TranslationBundle {
  id: string;
  namespace: string;
  de: Messages;
  en: Messages;
}

export class TranslationRegistry extends Registry<TranslationBundle> {
  constructor() {
    super('translation bundle');
  }
}

export function normaliseLanguage(lang: string | undefined | null): Language {
  const l = (lang ?? '').toLowerCase().slice(0, 2);
  return (LANGUAGES as readonly string[]).includes(l) ? (l as Language) : DEFAULT_LANGUAGE;
}

/**
 * Picks the supported language with the highest q of an Accept-Language header (header order on
 * ties). q=0 means "not acceptable" and is never picked (RFC 9110 §12.4.2).
 */
export function languageFromHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const langs = header
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase().slice(0, 2), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((l) => l.q > 0)
    .sort((a, b) => b.q - a.q);
  return langs.find((l) => (LANGUAGES as readonly string[]).includes(l.tag))?.tag as Language | undefined;
}

/** Builds an i18next instance from every registered bundle (synchronously initialised). */
export function createI18n(bundles: TranslationBundle[], lng: Language = DEFAULT_LANGUAGE): i18n {
  const instance = i18next.createInstance();
  const resources: Record<string, Record<string, Messages>> = { de: {}, en: {} };
  for (const b of bundles) {
    resources.de[b.namespace] = { ...(resources.de[b.namespace] ?? {}), ...b.de };
    resources.en[b.namespace] = { ...(resources.en[b.namespace] ?? {}), ...b.en };
  }
  void instance.init({
    lng,
    fallbackLng: false,
    resources,
    ns: Object.keys(resources.en),
    defaultNS: 'core',
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return instance;
}

/** Keys present in one language and missing in the other, as `ns:path` strings. */
export function missingTranslations(bundles: TranslationBundle[]): string[] {
  const flatten = (m: Messages, prefix = ''): string[] =>
    Object.entries(m).flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : flatten(v, `${prefix}${k}.`)));
  const out: string[] = [];
  for (const b of bundles) {
    const de = new Set(flatten(b.de));
    const en = new Set(flatten(b.en));
    for (const k of de) if (!en.has(k)) out.push(`${b.namespace}:${k} (missing in en)`);
    for (const k of en) if (!de.has(k)) out.push(`${b.namespace}:${k} (missing in de)`);
  }
  return out;
}

/**
 * View translations (spec 002 §3, §5, §7): a key (a label of the view in its author's language) and
 * its values per language. One rule for the editor and the server: which rows are saved.
 */
export const TRANSLATION_LANGUAGES = ['en', 'de', 'fr'] as const;
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** A saved translation as `GET …/translations` answers it. */
export interface ViewTranslation {
  key: string;
  key_id: number;
  values: Partial<Record<TranslationLanguage, string>>;
}

/** A row as the editor sends it. */
export interface TranslationRow {
  key: string;
  values: Partial<Record<string, unknown>>;
}

export const MAX_TRANSLATIONS = 2000;
export const MAX_TRANSLATION_LENGTH = 10_000;

/**
 * The rows to save (spec 002 §5): only those with a key and at least one non-blank value; values
 * trimmed of nothing but kept only when not blank, in the three languages; the last row of a key
 * wins. Undefined when the body is not a list of such rows.
 */
export function savedTranslations(
  rows: unknown,
): { key: string; values: Partial<Record<TranslationLanguage, string>> }[] | undefined {
  if (!Array.isArray(rows) || rows.length > MAX_TRANSLATIONS) return undefined;
  const out = new Map<string, Partial<Record<TranslationLanguage, string>>>();
  for (const row of rows) {
    if (!row || typeof row !== 'object' || Array.isArray(row)) return undefined;
    const { key, values } = row as Record<string, unknown>;
    if (typeof key !== 'string' || key.length > MAX_TRANSLATION_LENGTH) return undefined;
    if (values !== undefined && (!values || typeof values !== 'object' || Array.isArray(values))) return undefined;
    const kept: Partial<Record<TranslationLanguage, string>> = {};
    for (const lang of TRANSLATION_LANGUAGES) {
      const v = (values as Record<string, unknown> | undefined)?.[lang];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string' || v.length > MAX_TRANSLATION_LENGTH) return undefined;
      if (v.trim() !== '') kept[lang] = v;
    }
    if (key.trim() === '' || !Object.keys(kept).length) continue;
    out.set(key, kept);
  }
  return [...out].map(([key, values]) => ({ key, values }));
}

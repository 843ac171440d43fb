/**
 * The viewer's own texts in English, German and French (the languages of view translations) and
 * the language it opens in: `?lang=` in its address, else the browser's first of the three, else
 * German.
 */
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import fr from './i18n/fr.json' with { type: 'json' };
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../common/view-translations';

export const VIEWER_TEXTS: Record<TranslationLanguage, Record<string, string>> = { en, de, fr };
export type ViewerTextKey = keyof typeof en;
export type ViewerT = (key: ViewerTextKey, params?: Record<string, string | number>) => string;

/** The texts of `lang` with `{{name}}` placeholders filled. */
export function viewerT(lang: TranslationLanguage): ViewerT {
  const texts = VIEWER_TEXTS[lang];
  return (key, params) => (texts[key] ?? en[key]).replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params?.[p] ?? ''));
}

const known = (v: string | null | undefined): TranslationLanguage | undefined => {
  const short = v?.toLowerCase().slice(0, 2);
  return TRANSLATION_LANGUAGES.find((l) => l === short);
};

/** The language the viewer opens in. */
export function startLanguage(search: string, browser: readonly string[]): TranslationLanguage {
  return known(new URLSearchParams(search).get('lang')) ?? browser.map(known).find(Boolean) ?? 'de';
}

export const LANGUAGE_NAMES: Record<TranslationLanguage, string> = { en: 'English', de: 'Deutsch', fr: 'Français' };

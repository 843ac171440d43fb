import { makeAutoObservable } from 'mobx';
import type { i18n } from 'i18next';
import { token, normaliseLanguage, type Language } from '../common/index';
import type { ApiClient } from './api-client';

export const I18nService = token<I18nService>('I18nService');
/** The language of the workbench: German or English, remembered per user (and per browser). */
export interface I18nService {
  readonly language: Language;
  readonly i18n: i18n;
  setLanguage(lang: Language, opts?: { persist?: boolean }): Promise<void>;
}

export class DefaultI18nService implements I18nService {
  language: Language;

  constructor(
    readonly i18n: i18n,
    private readonly api: ApiClient,
    private readonly isAuthenticated: () => boolean,
  ) {
    this.language = normaliseLanguage(i18n.language);
    makeAutoObservable<DefaultI18nService, 'api' | 'isAuthenticated'>(this, { i18n: false, api: false, isAuthenticated: false });
  }

  async setLanguage(lang: Language, opts: { persist?: boolean } = {}): Promise<void> {
    await this.i18n.changeLanguage(lang);
    this.language = lang;
    if (typeof document !== 'undefined') {
      document.documentElement.lang = lang;
      document.cookie = `werkbank_lang=${lang}; path=/; max-age=31536000; samesite=lax`;
    }
    if (opts.persist !== false && this.isAuthenticated()) await this.api.patch('/api/v2/backend/profile', { language: lang });
  }
}

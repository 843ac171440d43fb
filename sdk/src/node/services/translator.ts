import { token } from '@werkbank/kernel';

/** The server's and the plugins' translations, outside a request (a request has `ctx.state.t`). */
export interface Translator {
  /** The text of `key` (`ns:key`, namespace 'server' when none is given) in `lang` ('de' or 'en'). */
  translate(lang: string, key: string, params?: Record<string, unknown>): string;
}
export const Translator = token<Translator>('Translator');

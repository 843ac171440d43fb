/** Parts both viewer modes show (decision 0088, 0090): the loading page, the language choice, a box's title bar. */
import { useEffect, useRef, type ReactElement, type ReactNode } from '@werkbank/sdk/globe';
import { TRANSLATION_LANGUAGES, type TranslationLanguage } from '../common/view-translations';
import { LANGUAGE_NAMES, type ViewerT } from './viewer-i18n';

/** What is loaded, or why not: still loading, not there (or not for this visitor), or failed with a status. */
export type LoadState<T> =
  { state: 'loading' } | { state: 'missing' } | { state: 'failed'; status: number } | ({ state: 'ready' } & T);

/** The page while nothing is shown yet: loading, not found (with the sign-in hint), or failed. */
export function LoadMessage(props: { load: LoadState<object>; t: ViewerT; notFound: string }): ReactElement {
  const { load, t } = props;
  return (
    <main className="wbv-message">
      {load.state === 'loading' && <p role="status">{t('loading')}</p>}
      {load.state === 'missing' && (
        <>
          <h1>{props.notFound}</h1>
          <p>
            {t('sign_in_hint')} <a href={`/accounts/login/?next=${encodeURIComponent(location.pathname)}`}>{t('sign_in')}</a>
          </p>
        </>
      )}
      {load.state === 'failed' && <h1>{t('failed', { status: load.status })}</h1>}
    </main>
  );
}

/** The viewer's language: English, German or French. */
export function LanguageSelect(props: {
  lang: TranslationLanguage;
  t: ViewerT;
  onChange(l: TranslationLanguage): void;
}): ReactElement {
  return (
    <label className="wbv-language">
      {props.t('language')}{' '}
      <select value={props.lang} onChange={(e) => props.onChange(e.target.value as TranslationLanguage)}>
        {TRANSLATION_LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A box's title with its close button (Escape closes the box too). */
export function BoxHeader(props: { title: ReactNode; t: ViewerT; onClose(): void }): ReactElement {
  return (
    <header>
      <h2>{props.title}</h2>
      <button
        type="button"
        className="wbv-icon"
        aria-label={props.t('selection_close')}
        title={props.t('selection_close')}
        onClick={props.onClose}
      >
        ✕
      </button>
    </header>
  );
}

/** A box over the map (a selected feature): focused when `focusKey` changes, closed by Escape. */
export function MapBox(props: { label: string; focusKey: unknown; onClose(): void; children: ReactNode }): ReactElement {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), [props.focusKey]);
  return (
    <section
      ref={ref}
      className="wbv-selection"
      aria-label={props.label}
      tabIndex={-1}
      onKeyDown={(e) => e.key === 'Escape' && props.onClose()}
    >
      {props.children}
    </section>
  );
}

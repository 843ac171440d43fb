import { useEffect, useMemo } from '@werkbank/sdk/react';
import { Callout, FormGroup, H2, HTMLSelect, InputGroup, NonIdealState, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { FunctionLibraryStore } from './function-library-store';
import { FunctionLibraryEntry } from './function-library-entry';

/**
 * The function library (spec 000 §2 "/library/ opens in a new tab"): every function of the
 * catalogue with its documentation, ports and types, in the user's language, searchable by text
 * (the function list's search rules) and by namespace. Each function opens by keyboard (Enter or
 * Space on its summary); the number of functions found is announced.
 */
const FunctionLibraryScreen = observer(function FunctionLibraryScreen() {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT('sb-library');
  const store = useMemo(() => new FunctionLibraryStore(api), [api]);
  useEffect(() => () => store.dispose(), [store]);
  // The texts come in the caller's language: load again when it changes.
  useEffect(() => void store.load(), [store, i18n.language]);

  const found = store.functions;
  return (
    <div className="wb-page" data-testid="function-library">
      <div className="wb-toolbar">
        <H2>{t('library.title')}</H2>
      </div>
      <p className="wb-muted">{t('library.intro')}</p>
      <div role="search" className="wb-toolbar" style={{ alignItems: 'flex-end', flexWrap: 'wrap' }}>
        <FormGroup label={t('library.search')} labelFor="library-search" style={{ margin: 0, minWidth: 280 }}>
          <InputGroup
            id="library-search"
            type="search"
            leftIcon="search"
            value={store.query}
            placeholder={String(t('library.search_placeholder'))}
            onValueChange={(v) => store.setQuery(v)}
            onKeyDown={(e) => e.key === 'Escape' && store.setQuery('')}
            data-testid="library-search"
          />
        </FormGroup>
        <FormGroup label={t('library.namespace')} labelFor="library-namespace" style={{ margin: 0 }}>
          <HTMLSelect
            id="library-namespace"
            value={store.namespace}
            onChange={(e) => store.setNamespace(e.currentTarget.value)}
            data-testid="library-namespace"
          >
            <option value="">{t('library.all_namespaces')}</option>
            {store.namespaces.map((ns) => (
              <option key={ns} value={ns}>
                {ns}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      </div>
      <p role="status" className="wb-muted" data-testid="library-count">
        {found ? t('library.count', { count: found.length }) : ''}
      </p>
      {store.failure && (
        <Callout intent="danger" role="alert" title={String(t('library.error_title'))}>
          {t('library.failed', { message: store.failure })}
        </Callout>
      )}
      {!found && <Spinner size={30} aria-label={String(t('library.loading'))} />}
      {found && !found.length && !store.failure && <NonIdealState icon="search" title={t('library.none')} />}
      {!!found?.length && (
        <ul className="wb-library-list" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {found.map((fn) => (
            <li key={fn.name}>
              <FunctionLibraryEntry fn={fn} baseChains={store.baseChains} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

export default FunctionLibraryScreen;

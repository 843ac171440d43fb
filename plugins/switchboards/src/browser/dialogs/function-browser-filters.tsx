import { useEffect, useRef, useState } from '@werkbank/sdk/react';
import { Button, HTMLSelect, InputGroup, Tag } from '@werkbank/sdk/ui';
import { ApiClient, observer, SEARCH_AUTOFOCUS_DELAY_MS, useService, useT, type ListResponse } from '@werkbank/sdk/browser';
import { FUNCTION_PATH, type FunctionInfo } from '../../common/switchboard-types';
import type { FunctionBrowserStore } from './function-browser-store';
import { useTypeNames } from './use-type-names';

/** The namespaces of the installed functions (spec 000 §9: the function list holds at most 1000). */
function useNamespaces(): string[] {
  const api = useService(ApiClient);
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api.get<ListResponse<FunctionInfo>>(FUNCTION_PATH, { query: { limit: 1000 } }).then(
      (r) => live && setNames([...new Set(r.objects.map((f) => f.namespace))].sort()),
      () => undefined,
    );
    return () => void (live = false);
  }, [api]);
  return names;
}

/**
 * The function browser's filters (spec 000 §2): search field, favourites toggle, input-type and
 * output-type selects, and the namespace filter with its removable chips.
 */
export const FunctionBrowserFilters = observer(function FunctionBrowserFilters({
  store,
  autoFocus,
}: {
  store: FunctionBrowserStore;
  autoFocus?: boolean;
}) {
  const t = useT('sb-dialogs');
  const types = useTypeNames();
  const namespaces = useNamespaces();
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!autoFocus) return;
    const timer = setTimeout(() => search.current?.focus(), SEARCH_AUTOFOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autoFocus]);
  const typeOptions = (current: string) => [...new Set([...types, ...(current ? [current] : [])])].sort();
  return (
    <div className="wb-gap">
      <div style={{ display: 'flex', gap: 8, marginBottom: 8 }}>
        <InputGroup
          inputRef={search}
          fill
          leftIcon="search"
          // Not type="search": the browser would add a clear button of its own beside ours.
          placeholder={String(t('functions.search'))}
          aria-label={String(t('functions.search'))}
          data-testid="function-search"
          value={store.query}
          onValueChange={(v) => store.setQuery(v)}
          rightElement={
            store.query ? (
              <Button
                variant="minimal"
                icon="cross"
                aria-label={String(t('functions.reset'))}
                onClick={() => store.setQuery('')}
              />
            ) : undefined
          }
        />
        <Button
          icon={store.favoritesOnly ? 'star' : 'star-empty'}
          active={store.favoritesOnly}
          text={t('functions.favorites')}
          data-testid="function-favorites-only"
          onClick={() => store.setFavoritesOnly(!store.favoritesOnly)}
        />
      </div>
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center' }}>
        <HTMLSelect
          aria-label={String(t('functions.input_type'))}
          data-testid="function-input-type"
          value={store.inputType}
          onChange={(e) => store.setTypes(e.target.value, store.outputType)}
        >
          <option value="">{t('functions.any_input')}</option>
          {typeOptions(store.inputType).map((n) => (
            <option key={n} value={n}>
              {t('functions.input_of', { type: n })}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect
          aria-label={String(t('functions.output_type'))}
          data-testid="function-output-type"
          value={store.outputType}
          onChange={(e) => store.setTypes(store.inputType, e.target.value)}
        >
          <option value="">{t('functions.any_output')}</option>
          {typeOptions(store.outputType).map((n) => (
            <option key={n} value={n}>
              {t('functions.output_of', { type: n })}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect
          aria-label={String(t('functions.namespace'))}
          data-testid="function-namespace-select"
          value=""
          onChange={(e) => store.addNamespace(e.target.value)}
        >
          <option value="">{t('functions.add_namespace')}</option>
          {namespaces
            .filter((n) => !store.namespaces.includes(n))
            .map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
        </HTMLSelect>
        <div className="wb-chips" data-testid="function-namespaces">
          {store.namespaces.map((n) => (
            <Tag key={n} intent="primary" data-testid={`function-namespace-chip-${n}`} onRemove={() => store.removeNamespace(n)}>
              {n}
            </Tag>
          ))}
        </div>
      </div>
    </div>
  );
});

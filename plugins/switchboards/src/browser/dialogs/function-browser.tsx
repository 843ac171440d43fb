import { useEffect, useMemo, useRef, type ReactKeyboardEvent } from '@werkbank/sdk/react';
import { Button, Callout, NonIdealState, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, INFINITE_SCROLL_THRESHOLD_PX, NotificationService, observer, useService, useT } from '@werkbank/sdk/browser';
import type { FunctionInfo } from '../../common/switchboard-types';
import { FunctionBrowserStore } from './function-browser-store';
import { FunctionBrowserFilters } from './function-browser-filters';
import { FunctionBrowserItem } from './function-browser-item';

export { FUNCTION_DRAG_TYPE } from './function-browser-item';

export interface FunctionBrowserProps {
  /** Called with the chosen function (Enter, double-click). */
  onSubmit(f: FunctionInfo): void;
  /** Initial filters: only functions with an input taking / an output yielding this type (name or address). */
  inputType?: string;
  outputType?: string;
  autoFocus?: boolean;
}

/**
 * The function browser of spec 000 §2, §5, §9: search (from 2 characters; a trailing '!' includes
 * hidden functions), type filters, favourites, namespace chips; 10 functions at a time and 10 more
 * on scrolling or 'More'; arrow keys move the selection, Enter or double-click submits; every row
 * can be dragged onto the canvas (FUNCTION_DRAG_TYPE).
 */
export const FunctionBrowser = observer(function FunctionBrowser({
  onSubmit,
  inputType,
  outputType,
  autoFocus,
}: FunctionBrowserProps) {
  const api = useService(ApiClient);
  const notifications = useService(NotificationService);
  const t = useT('sb-dialogs');
  const store = useMemo(() => new FunctionBrowserStore(api), [api]);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => () => store.dispose(), [store]);
  useEffect(() => store.setTypes(inputType ?? '', outputType ?? ''), [store, inputType, outputType]);
  useEffect(() => {
    const row = list.current?.children[store.selected] as HTMLElement | undefined;
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [store.selectedItem]);

  const favorite = async (fn: FunctionInfo) => {
    try {
      const on = await store.toggleFavorite(fn);
      notifications.success(String(t(on ? 'functions.favored' : 'functions.unfavored')));
    } catch (e) {
      notifications.error((e as Error).message);
    }
  };
  const onKeyDown = (e: ReactKeyboardEvent<HTMLDivElement>) => {
    // Buttons and selects keep their own Enter and arrow keys.
    if ((e.target as HTMLElement).closest('button, select')) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      store.move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void store.settle().then(() => store.selectedItem && onSubmit(store.selectedItem));
    }
  };
  const onScroll = () => {
    const el = list.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < INFINITE_SCROLL_THRESHOLD_PX) void store.more();
  };

  return (
    <div data-testid="function-browser" onKeyDown={onKeyDown}>
      <FunctionBrowserFilters store={store} autoFocus={autoFocus} />
      {store.error && (
        <Callout intent="danger" title={String(t('common.error'))} data-testid="function-error">
          {store.error}
        </Callout>
      )}
      <div
        ref={list}
        role="listbox"
        tabIndex={0}
        aria-label={String(t('functions.list'))}
        aria-activedescendant={store.selectedItem ? `function-option-${store.selectedItem.name}` : undefined}
        data-testid="function-list"
        onScroll={onScroll}
        style={{ maxHeight: 420, overflowY: 'auto', outlineOffset: -2 }}
      >
        {store.items.map((fn, i) => (
          <FunctionBrowserItem
            key={fn.name}
            fn={fn}
            selected={i === store.selected}
            onSelect={() => store.select(i)}
            onSubmit={() => onSubmit(fn)}
            onFavorite={() => void favorite(fn)}
            onNamespace={(ns) => store.addNamespace(ns)}
          />
        ))}
        {!store.loading && !store.error && store.items.length === 0 && (
          <NonIdealState icon="function" title={t('functions.none')} description={t('functions.none_hint')} />
        )}
      </div>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 8 }}>
        <span className="wb-muted" data-testid="function-count">
          {t('functions.count', { shown: store.items.length, total: store.total })}
        </span>
        {store.loading && <Spinner size={16} />}
        {store.hasMore && (
          <Button
            variant="minimal"
            icon="more"
            text={t('functions.more')}
            data-testid="function-more"
            disabled={store.loading}
            onClick={() => void store.more()}
          />
        )}
      </div>
    </div>
  );
});

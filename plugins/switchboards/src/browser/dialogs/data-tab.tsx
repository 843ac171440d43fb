import { useEffect, useMemo, useRef, useState, type ReactKeyboardEvent } from '@werkbank/sdk/react';
import { Button, Callout, InputGroup, NonIdealState, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, ConfigStore, Licensed, observer, ResourceListStore, useService, useT } from '@werkbank/sdk/browser';
import { typeName } from '../../common/switchboard-types';
import type { InsertResult } from './insert-result';

/** The depot list (plugin magazine). */
export const DEPOT_PATH = '/api/v1/depot/';
/** The Magazine's depot list screen, where depots are made (spec 002). */
const MAGAZINE_PAGE = '/depots/';
const PAGE = 20;

interface DepotRow {
  id: number;
  resource_uri: string;
  name: string;
  content_type: string;
  size?: number;
}

/**
 * The frame the data tab inserts for a depot: type `depot`, one datum whose value is the depot's
 * address (what the magazine functions and the automatic runs of docs/api.md "Scheduling" read).
 */
export function depotFrame(depot: DepotRow): InsertResult {
  return { kind: 'frame', contentType: 'depot', name: depot.name, items: [{ value: depot.resource_uri }] };
}

/** Picks a depot by search; Enter or double-click inserts the selected one. */
const DepotPicker = observer(function DepotPicker({ onInsert }: { onInsert(r: InsertResult): void }) {
  const api = useService(ApiClient);
  const t = useT('sb-dialogs');
  const store = useMemo(() => {
    const s = new ResourceListStore<DepotRow>(api, DEPOT_PATH, PAGE);
    s.setQuery({ order_by: 'name' });
    return s;
  }, [api]);
  const [text, setText] = useState('');
  const [selected, setSelected] = useState(0);
  /** The search text the shown list belongs to (the list follows the text after a pause). */
  const shown = useRef<string | undefined>(undefined);
  const searchNow = async (q: string) => {
    await store.search(q);
    shown.current = q;
  };
  useEffect(() => {
    const q = text.trim();
    const timer = setTimeout(() => void searchNow(q).catch(() => undefined), text ? 250 : 0);
    setSelected(0);
    return () => clearTimeout(timer);
  }, [store, text]);
  // Back from the Magazine's tab (a depot made there): the list looks again.
  useEffect(() => {
    const again = () => void searchNow(text.trim()).catch(() => undefined);
    window.addEventListener('focus', again);
    return () => window.removeEventListener('focus', again);
  }, [store, text]);
  const chosen = store.items[selected];
  /**
   * Enter inserts the highlighted depot of the list for what was typed: while the list still shows
   * the results of an earlier text, it searches first and takes the best match (issue 14 item 16).
   */
  const enter = async () => {
    const q = text.trim();
    if (shown.current === q) {
      if (chosen) onInsert(depotFrame(chosen));
      return;
    }
    try {
      await searchNow(q);
    } catch {
      return;
    }
    setSelected(0);
    if (store.items[0]) onInsert(depotFrame(store.items[0]));
  };
  const keys = (e: ReactKeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setSelected((i) => Math.max(0, Math.min(i + (e.key === 'ArrowDown' ? 1 : -1), store.items.length - 1)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void enter();
    }
  };
  return (
    <div onKeyDown={keys}>
      <InputGroup
        autoFocus
        leftIcon="search"
        placeholder={String(t('data.search'))}
        aria-label={String(t('data.search'))}
        data-testid="depot-search"
        value={text}
        onValueChange={setText}
      />
      {store.error && (
        <Callout intent="danger" title={String(t('common.error'))}>
          {store.error}
        </Callout>
      )}
      <div role="listbox" aria-label={String(t('data.depots'))} style={{ maxHeight: 320, overflowY: 'auto', margin: '8px 0' }}>
        {store.items.map((d, i) => (
          <div
            key={d.id}
            role="option"
            aria-selected={i === selected}
            data-testid="depot-option"
            onClick={() => setSelected(i)}
            onDoubleClick={() => onInsert(depotFrame(d))}
            style={{
              display: 'flex',
              gap: 8,
              padding: '4px 8px',
              cursor: 'pointer',
              borderRadius: 3,
              background: i === selected ? 'rgba(45, 114, 210, 0.15)' : undefined,
            }}
          >
            <span style={{ flex: '1 1 auto' }}>{d.name}</span>
            <span className="wb-muted">{typeName(d.content_type)}</span>
          </div>
        ))}
        {store.isLoading && <Spinner size={20} />}
        {!store.isLoading && !store.error && store.items.length === 0 && <NonIdealState icon="database" title={t('data.none')} />}
      </div>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <span className="wb-muted" style={{ flex: '1 1 auto' }}>
          {store.hasMore ? t('data.more_hint', { shown: store.items.length, total: store.total }) : ''}{' '}
          {/* A new depot is made in the Magazine; a second tab keeps the canvas and this dialog open. */}
          <a href={MAGAZINE_PAGE} target="_blank" rel="noopener noreferrer" data-testid="depot-new-in-magazine">
            {t('data.new_in_magazine')}
          </a>
        </span>
        <Button
          intent="primary"
          icon="add"
          text={t('data.insert')}
          disabled={!chosen}
          data-testid="depot-insert"
          onClick={() => chosen && onInsert(depotFrame(chosen))}
        />
      </div>
    </div>
  );
});

/**
 * The insert dialog's data tab (spec 000 §2): a depot as a frame. Depots come from the Magazine;
 * without its plugin the tab says so, without its licence it shows the add-on notice.
 */
export const DataTab = observer(function DataTab({ onInsert }: { onInsert(r: InsertResult): void }) {
  const config = useService(ConfigStore);
  const t = useT('sb-dialogs');
  if (!config.config.plugins.includes('magazine')) {
    return (
      <Callout intent="primary" icon="info-sign" title={String(t('data.unavailable_title'))} data-testid="data-unavailable">
        {t('data.unavailable')}
      </Callout>
    );
  }
  return (
    <Licensed component="magazine">
      <DepotPicker onInsert={onInsert} />
    </Licensed>
  );
});

import { useEffect, useState, type ReactNode } from 'react';
import { Card, Checkbox, NonIdealState, Spinner, Callout } from '@blueprintjs/core';
import { Cell, Column, Table2 } from '@blueprintjs/table';
import { observer } from 'mobx-react-lite';
import { useT } from '@werkbank/kernel/browser';
import type { ListObject, ResourceListStore } from './resource-list-store';
import { useInfiniteScroll } from './infinite-scroll';
import type { Presentation } from './search-bar';

export interface ListColumn<T> {
  id: string;
  /** Translated header. */
  name: string;
  render(item: T): ReactNode;
  width?: number;
  /** Takes the width the other columns leave (at least `width`, default 120 px). */
  fill?: boolean;
}

/** The width of `el`, following resizes (0 before layout). */
function useWidth(el: HTMLElement | null): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el) return;
    setWidth(el.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return width;
}

/** Column widths in pixels: fixed columns as given (default 200), fill columns share the rest. */
export function columnWidths(columns: Array<{ width?: number; fill?: boolean }>, available: number): number[] {
  const fixed = columns.filter((c) => !c.fill).reduce((sum, c) => sum + (c.width ?? 200), 0);
  const fills = columns.filter((c) => c.fill).length;
  const share = fills ? Math.floor((available - fixed) / fills) : 0;
  return columns.map((c) => (c.fill ? Math.max(share, c.width ?? 120) : (c.width ?? 200)));
}

export interface ObjectListProps<T extends ListObject> {
  store: ResourceListStore<T>;
  presentation: Presentation;
  columns: ListColumn<T>[];
  /** Card body; defaults to the columns as label/value lines. */
  renderCard?(item: T): ReactNode;
  onOpen?(item: T): void;
  selectable?: boolean;
  emptyText?: string;
}

/**
 * The card and table presentations of spec 000 §2 over a ResourceListStore, with infinite scroll
 * (1000 ms throttle, 330 px threshold) and selection for the multi-select menu.
 */
function ObjectListImpl<T extends ListObject>(props: ObjectListProps<T>) {
  const { store, presentation, columns } = props;
  const t = useT();
  const [tableBox, setTableBox] = useState<HTMLDivElement | null>(null);
  const available = useWidth(tableBox);
  useInfiniteScroll(() => void store.loadMore().catch(() => undefined), store.hasMore, store.items.length);
  if (store.error && !store.items.length) {
    return (
      <Callout intent="danger" title={String(t('common.error'))}>
        {store.error}
      </Callout>
    );
  }
  if (!store.items.length) {
    return store.isLoading ? (
      <Spinner className="wb-spinner" />
    ) : (
      <NonIdealState icon="search" title={props.emptyText ?? String(t('common.no_results'))} />
    );
  }
  const items = store.items;
  const select = (item: T) => (
    <Checkbox
      className="wb-select"
      checked={store.selected.has(item.id)}
      aria-label={String(t('common.selected', { count: 1 }))}
      onChange={() => store.toggleSelected(item.id)}
      onClick={(e) => e.stopPropagation()}
    />
  );
  if (presentation === 'table') {
    const cols = props.selectable ? [{ id: '__select', name: '', width: 40, render: select }, ...columns] : columns;
    return (
      <div className="wb-table" data-testid="object-table" ref={setTableBox}>
        <Table2
          numRows={items.length}
          enableRowHeader={false}
          columnWidths={columnWidths(cols, available)}
          defaultRowHeight={32}
          getCellClipboardData={(row, col) => String(cols[col].render(items[row]) ?? '')}
        >
          {cols.map((c) => (
            <Column
              key={c.id}
              name={c.name}
              cellRenderer={(row) => (
                <Cell interactive className="wb-cell">
                  <div className="wb-cell-content" onDoubleClick={() => props.onOpen?.(items[row])}>
                    {c.render(items[row])}
                  </div>
                </Cell>
              )}
            />
          ))}
        </Table2>
        {store.isLoading && <Spinner size={20} className="wb-spinner" />}
      </div>
    );
  }
  return (
    <div className="wb-cards" data-testid="object-cards">
      {items.map((item) => (
        <Card
          key={item.id}
          interactive={!!props.onOpen}
          className={`wb-object-card ${store.selected.has(item.id) ? 'wb-selected' : ''}`}
          onClick={() => props.onOpen?.(item)}
          data-testid={`card-${item.id}`}
        >
          {props.selectable && select(item)}
          {props.renderCard
            ? props.renderCard(item)
            : columns.map((c) => (
                <div key={c.id}>
                  <span className="wb-muted">{c.name}: </span>
                  {c.render(item)}
                </div>
              ))}
        </Card>
      ))}
      {store.isLoading && <Spinner size={20} className="wb-spinner" />}
    </div>
  );
}

export const ObjectList = observer(ObjectListImpl) as typeof ObjectListImpl;

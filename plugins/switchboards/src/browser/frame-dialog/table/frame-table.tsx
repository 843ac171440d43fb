import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Cell, Column, ColumnHeaderCell, EditableCell2, InputGroup, NonIdealState, Table2 } from '@werkbank/sdk/ui';
import { columnWidths, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from '../frame-dialog-store';
import { isTableKind } from '../frame-kind';
import { formatBytes, tooltipOf } from '../value-format';
import { cellText } from './cell-rules';
import { ColumnChooser } from './column-chooser';
import { ColumnVisibility, VISIBLE_COLUMNS } from './column-visibility';
import { RowMenu } from './row-menu';
import { tableAdapterFor, type TableAdapter, type TableColumn } from './table-adapter';
import { useTableEdits } from './table-edits';
import { useThrottled } from './use-throttled';
import { frameFileLink } from '../../../common/frame-file-url';

/** spec 001 §9: rows and header 35 px; more rows at 90 % of the loaded ones, at most every 500 ms. */
export const TABLE_ROW_PX = 35;
export const LOAD_MORE_AT = 0.9;
export const LOAD_THROTTLE_MS = 500;
const MENU_COLUMN_PX = 40;

/** The table view, or the message of spec 001 §8 for types that cannot be shown in a table. */
export const FrameTable = observer(function FrameTable({ store }: { store: FrameDialogStore }) {
  const t = useT('sb-frame');
  if (!isTableKind(store.kind)) {
    return (
      <div data-testid="frame-not-table">
        <NonIdealState icon="th-disconnect" title={String(t('table.not_table'))} />
      </div>
    );
  }
  if (store.content.total === 0 && !store.content.loading) {
    const add = store.creatable && !store.readOnly;
    return (
      <div data-testid="frame-table-empty">
        <NonIdealState
          icon="th"
          title={String(t('cards.empty'))}
          action={add ? <Button icon="add" text={t('single.new')} onClick={() => store.addNew()} /> : undefined}
        />
      </div>
    );
  }
  return <FrameGrid store={store} adapter={tableAdapterFor(store.chain)} />;
});

/** Pixel widths of the row-menu column and `shown` (default 150; fill columns share what is left of `available`). */
export function gridColumnWidths(shown: TableColumn[], available: number): number[] {
  return columnWidths(
    [{ width: MENU_COLUMN_PX }, ...shown.map((c) => ({ width: c.width ?? 150, fill: c.fill }))],
    Math.max(0, available - 2),
  );
}

/** spec 001 §9: more rows once the last visible row reaches 90 % of the loaded ones. */
export const shouldLoadMore = (lastVisibleRow: number, loaded: number) => lastVisibleRow + 1 >= LOAD_MORE_AT * loaded;

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

/**
 * The editable grid of spec 001 §2.7 (Blueprint Table2): a row menu, a column chooser with the
 * hidden-column badge, a column filter box above 8 columns; edits by the rules of spec 001 §5.3.
 */
const FrameGrid = observer(function FrameGrid({ store, adapter }: { store: FrameDialogStore; adapter: TableAdapter }) {
  const t = useT('sb-frame');
  const language = useService(I18nService).language;
  const [visibility] = useState(() => new ColumnVisibility());
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  // Bumped when an edit is rejected or reverted, so the edited cell shows the stored value again.
  const [revision, setRevision] = useState(0);
  const width = useWidth(box);
  const content = store.content;
  const rows = content.items.map((_, i) => store.itemAt(i) ?? {});
  const edits = useTableEdits(store, adapter, () => setRevision((r) => r + 1));
  const loadMore = useThrottled(() => void (content.hasMore && !content.loading && content.loadMore()), LOAD_THROTTLE_MS);
  const nameOf = (c: TableColumn) => ('key' in c.label ? String(t(c.label.key)) : c.label.text);
  const all = adapter.columns(rows);
  const shown = visibility.shown(all, nameOf);
  const editable = !store.readOnly;

  const cell = (row: number, column: TableColumn) => {
    const value = adapter.get(rows[row], column);
    if (column.rule === 'download') {
      // Only the server's frame file addresses become links (a datum's fields can be edited).
      const link = frameFileLink(value);
      return <Cell>{link ? <a href={link}>{t('table.download')}</a> : ''}</Cell>;
    }
    const text = column.rule === 'size' ? formatBytes(value, language) : cellText(value, language);
    if (editable && column.editable) {
      return (
        <EditableCell2
          key={`${row}:${column.id}:${revision}`}
          value={text}
          tooltip={tooltipOf(text)}
          onConfirm={(next) => next !== text && edits.edit(row, column, next)}
        />
      );
    }
    return <Cell tooltip={tooltipOf(text)}>{text}</Cell>;
  };
  const header = (name: string) => () => <ColumnHeaderCell name={name} style={{ height: TABLE_ROW_PX }} />;
  const widths = gridColumnWidths(shown, width);

  return (
    <div
      data-testid="frame-table"
      data-columns={shown.map(nameOf).join('|')}
      style={{ display: 'flex', flexDirection: 'column', height: '100%' }}
    >
      <div className="wb-toolbar">
        <ColumnChooser
          columns={all.map((c) => ({ id: c.id, name: nameOf(c) }))}
          visibility={visibility}
          hidden={all.length - shown.length}
        />
        {all.length > VISIBLE_COLUMNS && (
          <InputGroup
            leftIcon="filter"
            placeholder={String(t('table.filter_columns'))}
            value={visibility.filter}
            onValueChange={(v) => visibility.setFilter(v)}
            data-testid="frame-column-filter"
          />
        )}
        <span className="wb-muted">{t('table.rows', { count: content.total })}</span>
      </div>
      <div ref={setBox} className="wb-table" style={{ flex: '1 1 auto', minHeight: 200 }}>
        <Table2
          numRows={rows.length}
          defaultRowHeight={TABLE_ROW_PX}
          enableRowHeader={false}
          columnWidths={widths}
          cellRendererDependencies={[rows, shown, revision, editable, language]}
          onVisibleCellsChange={(r) => shouldLoadMore(r.rowIndexEnd, rows.length) && loadMore()}
        >
          {[
            <Column
              key="__menu"
              id="__menu"
              columnHeaderCellRenderer={header('')}
              cellRenderer={(row) => (
                <Cell interactive>
                  <RowMenu
                    readOnly={store.readOnly}
                    onOpen={() => store.openSingle(row)}
                    onDuplicate={() => edits.duplicate(row)}
                    onDelete={() => edits.remove(row)}
                  />
                </Cell>
              )}
            />,
            ...shown.map((c) => (
              <Column key={c.id} id={c.id} columnHeaderCellRenderer={header(nameOf(c))} cellRenderer={(row) => cell(row, c)} />
            )),
          ]}
        </Table2>
      </div>
    </div>
  );
});

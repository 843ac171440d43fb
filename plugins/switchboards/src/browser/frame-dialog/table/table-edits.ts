import { ConfirmService, NotificationService, useService, useT } from '@werkbank/sdk/browser';
import type { FrameDialogStore } from '../frame-dialog-store';
import { parseCell } from './cell-rules';
import type { TableAdapter, TableColumn } from './table-adapter';

export interface TableEdits {
  /** A cell's new text: parsed by the column's rule, then sent; `onRejected` when it is not taken. */
  edit(row: number, column: TableColumn, text: string): void;
  duplicate(row: number): void;
  remove(row: number): void;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The table's changes (spec 001 §4, §5.3, §8). An edit is shown at once and sent as the row's new
 * fields; when the server refuses it the cell reverts with the notification 'Fehler beim Speichern'
 * ('Error while saving') and the server's reason. A text the column's rule rejects (colour, datetime,
 * number) is not sent, with a notification saying why. A row changed in the Single view and not
 * saved yet is sent with the edit. Rows cannot be duplicated or deleted while Single-view changes
 * are pending, since their positions would move.
 */
export function useTableEdits(store: FrameDialogStore, adapter: TableAdapter, onRejected: () => void): TableEdits {
  const t = useT('sb-frame');
  const notifications = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const content = store.content;
  const failed = (e: Error) => {
    notifications.error(String(t('table.save_failed', { reason: e.message })));
    onRejected();
  };
  const blocked = () => {
    if (!store.edits.size) return false;
    notifications.notify(String(t('table.save_single_first')), 'warning');
    return true;
  };
  return {
    edit(row, column, text) {
      const item = store.itemAt(row);
      if (!item) return;
      const parsed = parseCell(column.rule, text, column.nullable);
      if (!parsed.ok) {
        notifications.notify(String(t(`table.rejected_${parsed.reason}`)), 'warning');
        onRejected();
        return;
      }
      if (same(adapter.get(item, column), parsed.value)) return;
      const pending = store.edits.has(row);
      content.editItem(row, adapter.set(item, column, parsed.value)).then(() => pending && store.dropEdit(row), failed);
    },
    duplicate(row) {
      if (blocked()) return;
      content.duplicateItem(row).catch(failed);
    },
    remove(row) {
      if (blocked()) return;
      void confirm.confirm(String(t('table.row_delete_confirm', { row: row + 1 })), { intent: 'danger' }).then((ok) => {
        if (ok) content.deleteItem(row).catch(failed);
      });
    },
  };
}

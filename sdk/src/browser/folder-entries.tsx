import type { ReactNode } from 'react';
import { Card, HTMLTable, Icon, MenuItem } from '@blueprintjs/core';
import { useT } from '@werkbank/kernel/browser';
import { ActionMenu } from './action-menu';
import type { Presentation } from './search-bar';

/** What a folder needs to be listed: its id and name. */
export interface FolderEntry {
  id: number;
  name: string;
}

export interface FolderEntriesProps<F extends FolderEntry> {
  folders: F[];
  presentation: Presentation;
  /** The screen's own words: the menu button's name and the Open entry (Edit and Delete are the core's). */
  labels: { menu: string; open: string };
  /** Whether the caller may edit and delete `folder` (its `access`); Open is always offered. */
  mayChange(folder: NoInfer<F>): boolean;
  /** A second line of a card and a column of a row, e.g. how much the folder holds. */
  detail?(folder: NoInfer<F>): ReactNode;
  /** data-testid of the whole list; each folder is `folder-{id}`, its menu button `folder-menu-{id}`. */
  testId: string;
  onOpen(folder: NoInfer<F>): void;
  onEdit(folder: NoInfer<F>): void;
  onDelete(folder: NoInfer<F>): void;
}

/**
 * The folders of a list screen (spec 000 §2), before its objects: cards or table rows that open
 * the folder on click, each with a menu (Open; Edit and Delete to who may change it). Renders
 * nothing without folders.
 */
export function FolderEntries<F extends FolderEntry>(props: FolderEntriesProps<F>) {
  const { folders, presentation, labels, mayChange, detail, testId, onOpen, onEdit, onDelete } = props;
  const t = useT();
  if (!folders.length) return null;
  const menu = (f: F) => (
    <ActionMenu label={labels.menu} testId={`folder-menu-${f.id}`}>
      <MenuItem icon="folder-open" text={labels.open} onClick={() => onOpen(f)} />
      {mayChange(f) && <MenuItem icon="edit" text={t('common.edit')} onClick={() => onEdit(f)} />}
      {mayChange(f) && <MenuItem icon="trash" intent="danger" text={t('common.delete')} onClick={() => onDelete(f)} />}
    </ActionMenu>
  );
  if (presentation === 'table') {
    return (
      <HTMLTable compact interactive className="wb-gap" data-testid={testId}>
        <tbody>
          {folders.map((f) => (
            <tr key={f.id} onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
              <td>
                <Icon icon="folder-close" /> {f.name}
              </td>
              {detail && <td className="wb-muted">{detail(f)}</td>}
              <td>{menu(f)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  }
  return (
    <div className="wb-cards wb-gap" data-testid={testId}>
      {folders.map((f) => (
        <Card key={f.id} interactive className="wb-object-card" onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
          <div className="wb-object-card-head">
            <Icon icon="folder-close" />
            <span className="wb-object-card-title">{f.name}</span>
            {menu(f)}
          </div>
          {detail && <div className="wb-muted">{detail(f)}</div>}
        </Card>
      ))}
    </div>
  );
}

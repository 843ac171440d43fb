import { Card, HTMLTable, Icon, MenuItem } from '@werkbank/sdk/ui';
import { useT, type Presentation } from '@werkbank/sdk/browser';
import { mayWrite, type FolderNode } from '../common/magazine-types';
import { ActionMenu } from './action-menu';

export interface FolderEntriesProps {
  folders: FolderNode[];
  presentation: Presentation;
  onOpen(folder: FolderNode): void;
  onEdit(folder: FolderNode): void;
  onDelete(folder: FolderNode): void;
}

/** The sub-folders of the folder shown, as cards or table rows before its depots. */
export function FolderEntries({ folders, presentation, onOpen, onEdit, onDelete }: FolderEntriesProps) {
  const t = useT('magazine');
  if (!folders.length) return null;
  const menu = (f: FolderNode) => (
    <ActionMenu label={String(t('folder.menu'))}>
      <MenuItem icon="folder-open" text={t('list.open')} onClick={() => onOpen(f)} />
      {mayWrite(f) && <MenuItem icon="edit" text={t('core:common.edit')} onClick={() => onEdit(f)} />}
      {mayWrite(f) && <MenuItem icon="trash" intent="danger" text={t('core:common.delete')} onClick={() => onDelete(f)} />}
    </ActionMenu>
  );
  const count = (f: FolderNode) => t('folder.depot_count', { count: f.depot_count ?? 0 });
  if (presentation === 'table') {
    return (
      <HTMLTable compact interactive className="wb-gap wb-folder-table" data-testid="folder-entries">
        <tbody>
          {folders.map((f) => (
            <tr key={f.id} onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
              <td>
                <Icon icon="folder-close" /> {f.name}
              </td>
              <td className="wb-muted">{count(f)}</td>
              <td>{menu(f)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  }
  return (
    <div className="wb-cards wb-gap" data-testid="folder-entries">
      {folders.map((f) => (
        <Card key={f.id} interactive className="wb-object-card" onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
          <div className="wb-object-card-head">
            <Icon icon="folder-close" />
            <span className="wb-object-card-title">{f.name}</span>
            {menu(f)}
          </div>
          <div className="wb-muted">{count(f)}</div>
        </Card>
      ))}
    </div>
  );
}

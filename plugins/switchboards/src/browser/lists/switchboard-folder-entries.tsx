import { Card, HTMLTable, Icon, MenuItem } from '@werkbank/sdk/ui';
import { useT, type Presentation } from '@werkbank/sdk/browser';
import type { SwitchboardFolder } from '../../common/switchboard-types';
import { mayWrite } from './switchboard-list-ids';
import { ActionMenu } from './action-menu';

export interface SwitchboardFolderEntriesProps {
  folders: SwitchboardFolder[];
  presentation: Presentation;
  onOpen(folder: SwitchboardFolder): void;
  onEdit(folder: SwitchboardFolder): void;
  onDelete(folder: SwitchboardFolder): void;
}

/** The folders (shown at the root, before its switchboards) as cards or table rows, each with a menu. */
export function SwitchboardFolderEntries({ folders, presentation, onOpen, onEdit, onDelete }: SwitchboardFolderEntriesProps) {
  const t = useT('sb-lists');
  if (!folders.length) return null;
  const menu = (f: SwitchboardFolder) => (
    <ActionMenu label={String(t('folder.menu'))} testId={`folder-menu-${f.id}`}>
      <MenuItem icon="folder-open" text={t('folder.open')} onClick={() => onOpen(f)} />
      {mayWrite(f) && <MenuItem icon="edit" text={t('core:common.edit')} onClick={() => onEdit(f)} />}
      {mayWrite(f) && <MenuItem icon="trash" intent="danger" text={t('core:common.delete')} onClick={() => onDelete(f)} />}
    </ActionMenu>
  );
  if (presentation === 'table') {
    return (
      <HTMLTable compact interactive className="wb-gap" data-testid="switchboard-folders">
        <tbody>
          {folders.map((f) => (
            <tr key={f.id} onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
              <td>
                <Icon icon="folder-close" /> {f.name}
              </td>
              <td>{menu(f)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    );
  }
  return (
    <div className="wb-cards wb-gap" data-testid="switchboard-folders">
      {folders.map((f) => (
        <Card key={f.id} interactive className="wb-object-card" onClick={() => onOpen(f)} data-testid={`folder-${f.id}`}>
          <div className="wb-object-card-head">
            <Icon icon="folder-close" />
            <span className="wb-object-card-title">{f.name}</span>
            {menu(f)}
          </div>
        </Card>
      ))}
    </div>
  );
}

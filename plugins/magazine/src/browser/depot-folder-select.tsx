import { useEffect, useMemo } from '@werkbank/sdk/react';
import { HTMLSelect } from '@werkbank/sdk/ui';
import { ApiClient, observer, useService, useT } from '@werkbank/sdk/browser';
import { parentChoices } from '../common/folder-tree';
import { FolderTreeStore } from './folder-tree-store';

export interface DepotFolderSelectProps {
  /** A depot-folder address, or null for the root ('No folder'). */
  value: string | null;
  onChange(address: string | null): void;
  /** A folder whose subtree is not offered (a folder cannot move under itself, spec 002 §4). */
  excludeSubtreeOf?: number;
  disabled?: boolean;
  id?: string;
  /** The label of the empty choice; default 'No folder'. */
  noneLabel?: string;
}

/** The depot folder select of spec 000 §2: every readable folder, indented by depth, and 'No folder'. */
export const DepotFolderSelect = observer(function DepotFolderSelect(props: DepotFolderSelectProps) {
  const api = useService(ApiClient);
  const t = useT('magazine');
  const tree = useMemo(() => new FolderTreeStore(api), [api]);
  useEffect(() => void tree.load(), [tree]);
  const choices = parentChoices(tree.nodes, props.excludeSubtreeOf);
  return (
    <HTMLSelect
      id={props.id}
      fill
      disabled={props.disabled}
      value={props.value ?? ''}
      data-testid="depot-folder-select"
      onChange={(e) => props.onChange(e.target.value || null)}
    >
      <option value="">{props.noneLabel ?? t('folder.none')}</option>
      {choices.map((f) => (
        <option key={f.id} value={f.resource_uri}>
          {'\u00a0\u00a0'.repeat(f.depth)}
          {f.name}
        </option>
      ))}
    </HTMLSelect>
  );
});

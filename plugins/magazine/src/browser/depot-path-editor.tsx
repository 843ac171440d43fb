import { useEffect, useMemo, useState } from '@werkbank/sdk/react';
import { FormGroup, HTMLSelect, InputGroup } from '@werkbank/sdk/ui';
import {
  ApiClient,
  NavigationStore,
  observer,
  useService,
  useT,
  type DatumEditorProps,
  type ListResponse,
} from '@werkbank/sdk/browser';
import { byFolderPath, type Depot } from '../common/magazine-types';
import { joinDepotPath, splitDepotPath } from '../common/depot-path';
import { LAST_DEPOT_PATH_KEY } from '../common/magazine-ids';
import { FolderTreeStore } from './folder-tree-store';

/**
 * The depot path editor (spec 001 §2.1): a folder picker, a picker of the depot names in that
 * folder, and the path as free text, split at the last slash into folder and depot name (§5.1).
 * The datum editor for content type `depot`; its value is the path text.
 */
export const DepotPathEditor = observer(function DepotPathEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const t = useT('magazine');
  const tree = useMemo(() => new FolderTreeStore(api), [api]);
  const text = typeof value === 'string' ? value : '';
  const path = splitDepotPath(text);
  const folder = tree.all.find((f) => f.full_path === path.folder);
  const [depots, setDepots] = useState<Depot[]>([]);
  useEffect(() => void tree.load(), [tree]);
  useEffect(() => {
    if (path.folder && !folder) return setDepots([]);
    api.get<ListResponse<Depot>>(byFolderPath(folder?.id), { query: { limit: 1000, order_by: 'name' } }).then(
      (r) => setDepots(r.objects),
      () => setDepots([]),
    );
  }, [api, folder?.id, path.folder]);

  const set = (next: string) => {
    nav.set(LAST_DEPOT_PATH_KEY, next);
    onChange(next);
  };
  return (
    <div data-testid="depot-path-editor">
      <FormGroup label={t('path.folder')} inline>
        <HTMLSelect
          value={path.folder}
          disabled={readOnly}
          data-testid="depot-path-folder"
          onChange={(e) => set(joinDepotPath({ folder: e.target.value, name: path.name }))}
        >
          <option value="">{t('folder.none')}</option>
          {path.folder && !folder && <option value={path.folder}>{path.folder}</option>}
          {tree.all.map((f) => (
            <option key={f.id} value={f.full_path}>
              {f.full_path}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('path.depot')} inline>
        <HTMLSelect
          value={path.name}
          disabled={readOnly}
          data-testid="depot-path-name"
          onChange={(e) => set(joinDepotPath({ folder: path.folder, name: e.target.value }))}
        >
          <option value="">{t('path.choose_depot')}</option>
          {path.name && !depots.some((d) => d.name === path.name) && <option value={path.name}>{path.name}</option>}
          {depots.map((d) => (
            <option key={d.id} value={d.name}>
              {d.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('path.text')} helperText={t('path.hint')}>
        <InputGroup value={text} readOnly={readOnly} data-testid="depot-path-text" onValueChange={set} />
      </FormGroup>
    </div>
  );
});

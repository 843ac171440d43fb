import { useEffect, useMemo, useRef, useState } from '@werkbank/sdk/react';
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
import { byFolderPath, idOf, type Depot } from '../common/magazine-types';
import { isDepotAddress, joinDepotPath, splitDepotPath } from '../common/depot-path';
import { LAST_DEPOT_PATH_KEY } from '../common/magazine-ids';
import { FolderTreeStore } from './folder-tree-store';

/**
 * The depot path editor (spec 001 §2.1): a folder picker, a picker of the depot names in that
 * folder, and the path as free text, split at the last slash into folder and depot name (§5.1).
 * The datum editor for content type `depot`. Its value is the depot's address (`/api/v1/depot/3/`),
 * the one form every function takes (issue 14 item 12): the path is what the author sees and
 * types; a path that names a depot sets its address, one that names none changes nothing and says so.
 */
export const DepotPathEditor = observer(function DepotPathEditor({ value, readOnly, onChange }: DatumEditorProps) {
  const api = useService(ApiClient);
  const nav = useService(NavigationStore);
  const t = useT('magazine');
  const tree = useMemo(() => new FolderTreeStore(api), [api]);
  const address = typeof value === 'string' && isDepotAddress(value) ? value : undefined;
  // A value of another form (stored before addresses) is shown as the path it is.
  const [text, setText] = useState(() => (typeof value === 'string' && !address ? value : ''));
  const typed = useRef(false);
  const [named, setNamed] = useState<Depot>();
  const [depots, setDepots] = useState<{ folder: string; list: Depot[] }>();
  useEffect(() => void tree.load(), [tree]);

  // The depot the value names, shown as its path once the folders are known.
  useEffect(() => {
    if (!address) return setNamed(undefined);
    let live = true;
    api.get<Depot>(address).then(
      (d) => live && setNamed(d),
      () => live && setNamed(undefined),
    );
    return () => void (live = false);
  }, [api, address]);
  const namedFolder = named?.folder ? tree.all.find((f) => f.id === idOf(named.folder!)) : undefined;
  const namedPath =
    named && (!named.folder || namedFolder)
      ? joinDepotPath({ folder: namedFolder?.full_path ?? '', name: named.name })
      : undefined;
  useEffect(() => {
    if (namedPath !== undefined && !typed.current) setText(namedPath);
  }, [namedPath]);

  const path = splitDepotPath(text);
  const folder = tree.all.find((f) => f.full_path === path.folder);
  useEffect(() => {
    if (path.folder && !folder) return setDepots({ folder: path.folder, list: [] });
    let live = true;
    api.get<ListResponse<Depot>>(byFolderPath(folder?.id), { query: { limit: 1000, order_by: 'name' } }).then(
      (r) => live && setDepots({ folder: path.folder, list: r.objects }),
      () => live && setDepots({ folder: path.folder, list: [] }),
    );
    return () => void (live = false);
  }, [api, folder?.id, path.folder]);
  const list = depots?.folder === path.folder ? depots.list : undefined;
  const match = list?.find((d) => d.name === path.name);

  // A path typed or picked that names a depot sets its address.
  useEffect(() => {
    if (!typed.current || !match || match.resource_uri === address) return;
    nav.set(LAST_DEPOT_PATH_KEY, text);
    onChange(match.resource_uri);
  }, [match?.resource_uri]);

  const edit = (next: string) => {
    typed.current = true;
    setText(next);
    if (!next.trim() && address) onChange('');
  };
  const unknown = !!text.trim() && !!list && !match;
  return (
    <div data-testid="depot-path-editor" data-address={address ?? ''}>
      <FormGroup label={t('path.folder')} inline>
        <HTMLSelect
          value={path.folder}
          disabled={readOnly}
          data-testid="depot-path-folder"
          onChange={(e) => edit(joinDepotPath({ folder: e.target.value, name: path.name }))}
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
          onChange={(e) => edit(joinDepotPath({ folder: path.folder, name: e.target.value }))}
        >
          <option value="">{t('path.choose_depot')}</option>
          {path.name && !match && <option value={path.name}>{path.name}</option>}
          {(list ?? []).map((d) => (
            <option key={d.id} value={d.name}>
              {d.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup
        label={t('path.text')}
        helperText={unknown ? t('path.unknown', { path: text.trim() }) : t('path.hint')}
        intent={unknown ? 'warning' : 'none'}
      >
        <InputGroup
          value={text}
          readOnly={readOnly}
          intent={unknown ? 'warning' : 'none'}
          data-testid="depot-path-text"
          onValueChange={edit}
        />
      </FormGroup>
    </div>
  );
});

import { useNavigate } from '@werkbank/sdk/react';
import { Breadcrumb, Classes } from '@werkbank/sdk/ui';
import { useT } from '@werkbank/sdk/browser';
import { folderRoute, type FolderNode } from '../common/magazine-types';

/**
 * The path of a folder as breadcrumbs: the Magazine, then each folder down to `trail`'s last one;
 * `current` (a depot name) ends it when given. Each entry but the last opens its folder.
 */
export function FolderBreadcrumb({ trail, current }: { trail: FolderNode[]; current?: string }) {
  const t = useT('magazine');
  const navigate = useNavigate();
  const entries = [
    { key: 'root', text: String(t('list.root')), icon: 'box' as const, to: folderRoute(undefined) },
    ...trail.map((f) => ({ key: `f${f.id}`, text: f.name, icon: 'folder-close' as const, to: folderRoute(f.id) })),
    ...(current !== undefined ? [{ key: 'current', text: current, icon: 'database' as const, to: undefined }] : []),
  ];
  return (
    <ul className={`${Classes.BREADCRUMBS} wb-gap`} data-testid="folder-breadcrumb">
      {entries.map((e, i) => {
        const last = i === entries.length - 1;
        return (
          <li key={e.key}>
            <Breadcrumb text={e.text} icon={e.icon} current={last} onClick={last || !e.to ? undefined : () => navigate(e.to!)} />
          </li>
        );
      })}
    </ul>
  );
}

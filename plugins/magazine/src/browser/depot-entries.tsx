import type { ReactNode } from '@werkbank/sdk/react';
import { MenuItem, Tag } from '@werkbank/sdk/ui';
import { ActionMenu, useT, type ListColumn } from '@werkbank/sdk/browser';
import { mayWrite, typeNameOf, type Depot } from '../common/magazine-types';

export interface DepotEntryActions {
  open(depot: Depot): void;
  edit(depot: Depot): void;
  favor(depot: Depot): void;
  remove(depot: Depot): void;
}

/** The menu of a depot card or row: open, edit, favourite, delete — edit and delete only when the caller may change it. */
export function DepotMenu({ depot, actions }: { depot: Depot; actions: DepotEntryActions }) {
  const t = useT('magazine');
  const writable = mayWrite(depot);
  return (
    <ActionMenu label={String(t('depot.menu'))}>
      <MenuItem icon="database" text={t('list.open')} onClick={() => actions.open(depot)} />
      {writable && <MenuItem icon="edit" text={t('core:common.edit')} onClick={() => actions.edit(depot)} />}
      <MenuItem
        icon={depot.favored ? 'star' : 'star-empty'}
        text={t(depot.favored ? 'core:common.unfavor' : 'core:common.favor')}
        onClick={() => actions.favor(depot)}
      />
      {writable && <MenuItem icon="trash" intent="danger" text={t('core:common.delete')} onClick={() => actions.remove(depot)} />}
    </ActionMenu>
  );
}

/** The depot table's columns: name, type, datums at the head, last change, menu. */
export function depotColumns(
  t: (k: string) => unknown,
  fmt: (iso?: string) => string,
  menu: (d: Depot) => ReactNode,
): ListColumn<Depot>[] {
  return [
    { id: 'name', name: String(t('depot.name')), fill: true, width: 200, render: (d) => d.name },
    { id: 'type', name: String(t('depot.type')), width: 140, render: (d) => typeNameOf(d.content_type) },
    { id: 'size', name: String(t('depot.size')), width: 90, render: (d) => String(d.size ?? '') },
    { id: 'modified', name: String(t('depot.modified')), width: 170, render: (d) => fmt(d.modified) },
    { id: 'menu', name: '', width: 50, render: menu },
  ];
}

/** The body of a depot card: name, favourite mark and menu; type and datum count. */
export function DepotCard({ depot, menu }: { depot: Depot; menu: ReactNode }) {
  const t = useT('magazine');
  return (
    <>
      <div className="wb-object-card-head">
        <span className="wb-object-card-title">{depot.name}</span>
        {depot.favored && <Tag minimal icon="star" aria-label={String(t('core:common.favorites'))} />}
        {menu}
      </div>
      <div className="wb-muted">
        <Tag minimal>{typeNameOf(depot.content_type)}</Tag> {t('depot.datums', { count: depot.size ?? 0 })}
      </div>
      {depot.description && <div className="wb-muted wb-clamp">{depot.description}</div>}
    </>
  );
}

import { useState, useNavigate } from '@werkbank/sdk/react';
import { Button, HTMLTable, MenuItem, Tag } from '@werkbank/sdk/ui';
import { ActionMenu, ConfigStore, formatBytes, I18nService, observer, useService, useT } from '@werkbank/sdk/browser';
import { MenuDivider } from '@werkbank/sdk/ui';
import { DepotActionRegistry } from './depot-action-registry';
import type { DepotActionEntry, DepotActionTarget } from '../common/magazine-api';
import { depotRoute, type Moment } from '../common/magazine-types';
import type { DepotStore } from './depot-store';
import type { MomentActions } from './use-moment-actions';
import { RestoreDialog } from './restore-dialog';

const STATUS_INTENT = { open: 'primary', final: 'none', approved: 'success' } as const;

/**
 * The moments of a depot, newest first (spec 000 §3 "Moment", §4): status, user, created, message,
 * size, persistent size and the temporary flag, with approve, restore, finalize and delete when
 * the caller may change the depot (else no menu). A click selects a moment (its route); a second
 * click clears the selection.
 */
export const MomentList = observer(function MomentList({ store, actions }: { store: DepotStore; actions: MomentActions }) {
  const t = useT('magazine');
  const i18n = useService(I18nService);
  const navigate = useNavigate();
  const [restoring, setRestoring] = useState<Moment>();
  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  const moments = store.moments;
  const config = useService(ConfigStore);
  const registry = useService(DepotActionRegistry);
  const open = (m: Moment) => navigate(depotRoute(store.depotId, store.selectedId === m.id ? undefined : m.id));
  const depot = store.depot;
  // Actions other plugins add to a moment (DepotActionContribution), for readers too.
  const contributed = (m: Moment): { target: DepotActionTarget; entries: DepotActionEntry[] } | undefined => {
    if (!depot) return undefined;
    const target = {
      depot: { id: depot.id, resource_uri: depot.resource_uri, name: depot.name, content_type: depot.content_type },
      moment: { id: m.id, resource_uri: m.resource_uri },
      readOnly: !store.writable,
    };
    const entries = registry.entries('moment', target, {
      isSuperuser: config.isSuperuser,
      isEnabled: (c: string) => config.isEnabled(c),
    });
    return entries.length ? { target, entries } : undefined;
  };
  const menu = (m: Moment) => {
    const extra = contributed(m);
    if (!store.writable && !extra) return null;
    return (
      <ActionMenu label={String(t('moment.menu'))} testId={`moment-menu-${m.id}`}>
        {store.writable && ownEntries(m)}
        {store.writable && extra && <MenuDivider />}
        {extra?.entries.map((entry) => (
          <MenuItem
            key={entry.id}
            icon={entry.icon as never}
            text={t(entry.label)}
            data-testid={`moment-action-${entry.id}`}
            onClick={() => entry.run(extra.target)}
          />
        ))}
      </ActionMenu>
    );
  };
  const ownEntries = (m: Moment) => (
    <>
      <MenuItem
        icon="endorsed"
        text={t('moment.approve')}
        disabled={m.status === 'approved'}
        onClick={() => void actions.approve(m)}
        data-testid="moment-approve"
      />
      <MenuItem
        icon="history"
        text={t('moment.restore')}
        disabled={m.id === store.headId}
        onClick={() => setRestoring(m)}
        data-testid="moment-restore"
      />
      <MenuItem
        icon="lock"
        text={t('moment.finalize')}
        disabled={!store.isOpenHead(m)}
        onClick={() => void actions.finalize(m)}
        data-testid="moment-finalize"
      />
      <MenuItem
        icon="trash"
        intent="danger"
        text={t('core:common.delete')}
        onClick={() => void actions.remove(m)}
        data-testid="moment-delete"
      />
    </>
  );
  return (
    <section className="wb-gap" data-testid="moment-list">
      <HTMLTable compact interactive striped className="wb-moments">
        <thead>
          <tr>
            <th>{t('moment.status')}</th>
            <th>{t('moment.created')}</th>
            <th>{t('moment.user')}</th>
            <th>{t('moment.message')}</th>
            <th>{t('moment.size')}</th>
            <th>{t('moment.persistent_size')}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {moments.items.map((m) => (
            <tr
              key={m.id}
              onClick={() => open(m)}
              className={store.selectedId === m.id ? 'wb-selected-row' : undefined}
              aria-selected={store.selectedId === m.id}
              data-testid={`moment-${m.id}`}
            >
              <td>
                <Tag minimal intent={STATUS_INTENT[m.status] ?? 'none'}>
                  {t(`moment.status_${m.status}`)}
                </Tag>{' '}
                {m.id === store.headId && <Tag minimal>{t('moment.head')}</Tag>}{' '}
                {m.temporary && (
                  <Tag minimal intent="warning">
                    {t('moment.temporary')}
                  </Tag>
                )}
              </td>
              <td>{fmt.format(new Date(m.created))}</td>
              <td>{m.user_name ?? ''}</td>
              <td>{m.message}</td>
              <td>{t('moment.datums', { count: m.size })}</td>
              <td>{formatBytes(m.persistent_size, i18n.language)}</td>
              <td>{menu(m)}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {moments.items.length === 0 && !moments.isLoading && <p className="wb-muted">{t('moment.none')}</p>}
      {moments.hasMore && (
        <Button
          variant="minimal"
          text={t('core:common.load_more')}
          loading={moments.isLoading}
          onClick={() => void moments.loadMore().catch(() => undefined)}
        />
      )}
      {restoring && (
        <RestoreDialog
          onClose={() => setRestoring(undefined)}
          onRestore={(message) => {
            setRestoring(undefined);
            void actions.restore(restoring, message);
          }}
        />
      )}
    </section>
  );
});

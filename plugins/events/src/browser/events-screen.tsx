import { useEffect, useMemo, useRef, useState } from '@werkbank/sdk/react';
import { H2, HTMLSelect, Tag } from '@werkbank/sdk/ui';
import { observer } from '@werkbank/sdk/react';
import {
  ApiClient,
  EVENT_KEYS,
  I18nService,
  Licensed,
  ObjectList,
  ResourceListStore,
  SearchBar,
  useService,
  useT,
  UserSelect,
  useUsers,
  type EventObject,
} from '@werkbank/sdk/browser';
import { useLiveEvents } from './live-events';

/** One feed entry as a sentence: who did what to which object, and when. */
function EntryText({ e }: { e: EventObject }) {
  const t = useT('events');
  const meta = e.metadata as { tagged?: string; untagged?: string; impersonation?: string; impersonator_name?: string };
  const extra = meta.tagged
    ? ` (${t('tagged', { tag: meta.tagged })})`
    : meta.untagged
      ? ` (${t('untagged', { tag: meta.untagged })})`
      : meta.impersonation === 'start' || meta.impersonation === 'stop'
        ? ` (${t(`impersonation_${meta.impersonation}`)})`
        : '';
  // Done while a superuser acted as the user (issue 19): the feed names both.
  const acting = meta.impersonator_name ? ` (${t('acting_for', { impersonator: meta.impersonator_name })})` : '';
  return (
    <span>
      {t('entry', {
        user: e.user_name ?? t('unknown_user'),
        action: t(`keys.${e.key}`),
        kind: e.content_kind_label ?? e.content_kind,
        name: e.content_repr,
      })}
      {extra}
      {acting}
    </span>
  );
}

/** The activity feed at /events/: newest first, filter by user and key, infinite scroll, live. */
const Feed = observer(function Feed() {
  const api = useService(ApiClient);
  const i18n = useService(I18nService);
  const t = useT('events');
  const store = useMemo(() => new ResourceListStore<EventObject>(api, '/api/v1/event/', 30), [api]);
  const users = useUsers();
  const [user, setUser] = useState('');
  const [key, setKey] = useState('');
  const [text, setText] = useState('');
  const pending = useRef<ReturnType<typeof setTimeout>>(undefined);
  const reload = () => void store.reload().catch(() => undefined);

  useEffect(() => {
    store.setQuery({ user: user || undefined, key: key || undefined });
    reload();
  }, [store, user, key]);
  const live = useLiveEvents(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = undefined;
      reload();
    }, 250);
  });
  const fmt = new Intl.DateTimeFormat(i18n.language === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
  return (
    <div className="wb-page">
      <div className="wb-toolbar">
        <H2>{t('title')}</H2>
        {live && (
          <Tag intent="success" round icon="feed">
            {t('live')}
          </Tag>
        )}
      </div>
      <p className="wb-muted">{t('intro')}</p>
      <SearchBar value={text} onChange={setText} onSubmit={(q) => void store.search(q).catch(() => undefined)}>
        <UserSelect users={users} value={user} onChange={setUser} allLabel={String(t('all_users'))} testId="event-user-filter" />
        <HTMLSelect
          aria-label={String(t('all_keys'))}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          data-testid="event-key-filter"
        >
          <option value="">{t('all_keys')}</option>
          {EVENT_KEYS.map((k) => (
            <option key={k} value={k}>
              {t(`key_filter.${k}`)}
            </option>
          ))}
        </HTMLSelect>
      </SearchBar>
      <div className="wb-feed">
        <ObjectList
          store={store}
          presentation="cards"
          columns={[]}
          emptyText={String(t('empty'))}
          renderCard={(e) => (
            <div className="wb-feed-entry" data-testid="feed-entry">
              <span className="wb-feed-time">{fmt.format(new Date(e.created))}</span>
              <EntryText e={e} />
            </div>
          )}
        />
      </div>
    </div>
  );
});

export default function EventsScreen() {
  return (
    <Licensed component="events">
      <Feed />
    </Licensed>
  );
}

import { useEffect, useState } from 'react';
import { Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { ApiClient, useService, useT } from '@werkbank/kernel/browser';

/** A feed entry as `/api/v1/event/` replies it (spec 000 §3 Event). */
interface FeedEvent {
  id: number;
  key: string;
  user_name: string | null;
  created: string;
}

/** How many of the newest events an Events tab shows. */
export const OBJECT_EVENTS_LIMIT = 50;

/**
 * An object's Events tab (layers, views; gated by the events component by the caller): the feed
 * entries the `filter` query parameter selects (e.g. `{ layer_id: 7 }`), newest first.
 */
export function ObjectEvents({
  filter,
  emptyText,
  testId,
}: {
  filter: Record<string, number>;
  emptyText: string;
  testId: string;
}) {
  const t = useT();
  const api = useService(ApiClient);
  const [events, setEvents] = useState<FeedEvent[]>();
  const [error, setError] = useState<string>();
  const key = JSON.stringify(filter);
  useEffect(() => {
    let live = true;
    api.get<{ objects: FeedEvent[] }>('/api/v1/event/', { query: { ...filter, limit: OBJECT_EVENTS_LIMIT } }).then(
      (r) => live && setEvents(r.objects),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, key]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!events) return <Spinner />;
  if (!events.length) return <Callout data-testid={testId}>{emptyText}</Callout>;
  const row = testId.replace(/s$/, '');
  return (
    <HTMLTable compact striped className="wb-fill" data-testid={testId}>
      <thead>
        <tr>
          <th>{t('core:object_events.when')}</th>
          <th>{t('core:object_events.what')}</th>
          <th>{t('core:object_events.who')}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id} data-testid={row}>
            <td>{new Date(e.created).toLocaleString()}</td>
            <td>{t(`core:object_events.keys.${e.key}`, { defaultValue: e.key })}</td>
            <td>{e.user_name ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

import { useEffect, useState } from '@werkbank/sdk/react';
import { Callout, HTMLTable, Spinner } from '@werkbank/sdk/ui';
import { ApiClient, useService, useT } from '@werkbank/sdk/browser';

/** A feed entry as `/api/v1/event/` replies it (spec 000 §3 Event). */
interface LayerEvent {
  id: number;
  key: string;
  user_name: string | null;
  content_repr: string;
  created: string;
}

/** How many of the newest events the tab shows. */
export const LAYER_EVENTS_LIMIT = 50;

/** The Events tab (spec 001 §2.2, §7 "layer events (param layer_id)"): the layer's feed, newest first. */
export function LayerEventsTab({ layerId }: { layerId: number }) {
  const t = useT('layers');
  const api = useService(ApiClient);
  const [events, setEvents] = useState<LayerEvent[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    api.get<{ objects: LayerEvent[] }>('/api/v1/event/', { query: { layer_id: layerId, limit: LAYER_EVENTS_LIMIT } }).then(
      (r) => live && setEvents(r.objects),
      (e: Error) => live && setError(e.message),
    );
    return () => {
      live = false;
    };
  }, [api, layerId]);
  if (error) return <Callout intent="danger">{error}</Callout>;
  if (!events) return <Spinner />;
  if (!events.length) return <Callout data-testid="layer-events">{t('events.empty')}</Callout>;
  return (
    <HTMLTable compact striped className="wb-fill" data-testid="layer-events">
      <thead>
        <tr>
          <th>{t('events.when')}</th>
          <th>{t('events.what')}</th>
          <th>{t('events.who')}</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id} data-testid="layer-event">
            <td>{new Date(e.created).toLocaleString()}</td>
            <td>{t(`events.keys.${e.key}`, { defaultValue: e.key })}</td>
            <td>{e.user_name ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}

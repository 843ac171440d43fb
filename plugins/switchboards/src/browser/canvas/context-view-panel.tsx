import { useEffect, useState } from '@werkbank/sdk/react';
import { Button, Callout, Spinner, Tag } from '@werkbank/sdk/ui';
import { ApiClient, useService } from '@werkbank/sdk/browser';

interface ContextObject {
  type: string;
  resource_uri: string;
  name: string;
}
interface ContextView {
  type: string;
  resource_uri: string;
  relations: Array<{ from: string; kind: string; to: string }>;
  objects: ContextObject[];
}
/** spec 000 §9: depth 1, at most 10 objects per level. */
export const CONTEXT_DEPTH = 1;
export const CONTEXT_MAX_OBJECTS = 10;

/** Where a related object opens in the workbench (undefined: it is not shown on a screen). */
function routeOf(o: ContextObject): string | undefined {
  const id = /\/(\d+)\/$/.exec(o.resource_uri)?.[1];
  if (!id) return undefined;
  if (o.type === 'switchboard') return `/switchboard/${id}`;
  if (o.type === 'depot') return `/depot/${id}/`;
  if (o.type === 'depotfolder') return `/depotfolder/${id}`;
  if (o.type === 'workflow') return '/workflows/';
  return undefined;
}

/**
 * The context view (spec 000 §2): what provides data for the switchboard, what it feeds, which
 * workflows execute it. Related objects are loaded one level deeper, only when there are 10 or fewer.
 */
export function ContextViewPanel({
  uri,
  t,
  onClose,
  onOpen,
}: {
  uri: string;
  t: (k: string, o?: Record<string, unknown>) => string;
  onClose(): void;
  onOpen(route: string): void;
}) {
  const api = useService(ApiClient);
  const [view, setView] = useState<ContextView>();
  const [deeper, setDeeper] = useState<Record<string, ContextView>>({});
  const [error, setError] = useState<string>();
  useEffect(() => {
    let live = true;
    const load = (u: string) => api.get<ContextView>(`${u}contextview/`);
    void (async () => {
      try {
        const top = await load(uri);
        if (!live) return;
        setView(top);
        if (CONTEXT_DEPTH >= 1 && top.objects.length <= CONTEXT_MAX_OBJECTS) {
          const entries = await Promise.all(
            top.objects.map(async (o) => [o.resource_uri, await load(o.resource_uri).catch(() => undefined)] as const),
          );
          if (live)
            setDeeper(
              Object.fromEntries(entries.filter(([, v]) => v && v.objects.length <= CONTEXT_MAX_OBJECTS)) as Record<
                string,
                ContextView
              >,
            );
        }
      } catch (e) {
        // spec 000 §8: a status of 400 to 599 is a bad response.
        if (live) setError(`${t('context.bad_response')} (${(e as Error).message})`);
      }
    })();
    return () => {
      live = false;
    };
  }, [uri]);
  const item = (o: ContextObject, kinds: string[]) => {
    const route = routeOf(o);
    return (
      <div className="wb-context-item" key={o.resource_uri}>
        <Tag minimal>{t(`context.type.${o.type}`)}</Tag>
        {route ? <a onClick={() => onOpen(route)}>{o.name}</a> : <span>{o.name}</span>}
        {kinds.map((k) => (
          <Tag key={k} minimal intent="primary">
            {t(`context.kind.${k}`)}
          </Tag>
        ))}
      </div>
    );
  };
  const kindsOf = (v: ContextView, o: ContextObject) => [
    ...new Set(v.relations.filter((r) => r.from === o.resource_uri || r.to === o.resource_uri).map((r) => r.kind)),
  ];
  return (
    <aside className="wb-context-view" data-testid="context-view">
      <div className="wb-context-head">
        <strong>{t('title.show_context')}</strong>
        <Button minimal icon="cross" aria-label={t('context.close')} onClick={onClose} />
      </div>
      {error && <Callout intent="danger">{error}</Callout>}
      {!view && !error && <Spinner size={20} />}
      {view && view.objects.length === 0 && <p className="wb-muted">{t('context.empty')}</p>}
      {view?.objects.map((o) => (
        <div key={o.resource_uri}>
          {item(o, kindsOf(view, o))}
          <div className="wb-context-deeper">
            {deeper[o.resource_uri]?.objects
              .filter((x) => x.resource_uri !== uri)
              .map((x) => item(x, kindsOf(deeper[o.resource_uri], x)))}
          </div>
        </div>
      ))}
    </aside>
  );
}

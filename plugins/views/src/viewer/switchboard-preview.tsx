/**
 * The viewer in switchboard mode (decision 0090): the canvas's preview frame shows the frames that
 * are visible on the map, reloads when the canvas says they changed, and lets the author draw and
 * edit the features of frames edited in the map. Messages to and from the canvas are
 * `switchboard_action` messages, same origin only.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from '@werkbank/sdk/globe';
import {
  drawnGeometry,
  featuresBbox,
  SWITCHBOARD_ACTION,
  switchboardAction,
  switchboardMapPath,
  type Bbox,
  type DrawMode,
  type SwitchboardMap,
  type SwitchboardMapFrame,
} from '@werkbank/sdk';
import { DrawingBox, FeatureBox, type Drawing, type Selection } from './switchboard-preview-boxes';
import type { DrawnImagery } from './viewer-state';
import { ViewerGlobe, type CameraTarget, type GlobeControl, type VectorLayer } from './viewer-globe';
import type { GlobePick } from './feature-info';
import { startLanguage, viewerT, type ViewerT } from './viewer-i18n';
import { LanguageSelect, LoadMessage, type LoadState } from './viewer-parts';
import type { TranslationLanguage } from '../common/view-translations';

/** Frame colours, in turn (contrast ≥ 3:1 against the base map's light tones). */
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f00'];
const SELECTED_COLOUR = '#f0b400';

const embedded = () => window.parent !== window;

/** Asks the canvas around the preview for an action (only when the viewer is in its frame). */
function toCanvas(action: string, ...args: unknown[]): void {
  if (embedded()) window.parent.postMessage({ type: SWITCHBOARD_ACTION, action, args }, location.origin);
}

const csrf = () => /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie)?.[1];

/** A write as the signed-in author (session cookie and CSRF token); the server's message on failure. */
async function send(method: string, url: string, body?: unknown): Promise<void> {
  const token = csrf();
  const r = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { 'X-CSRFToken': decodeURIComponent(token) } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!r.ok) {
    // The server's reason, in the language the browser asks for.
    const reply = (await r.json().catch(() => ({}))) as { reason?: string };
    throw new Error(reply.reason ?? String(r.status));
  }
}

type Load = LoadState<{ map: SwitchboardMap }>;

/** The switchboard preview: loads `/api/v1/switchboard/{id}/map/` and reloads it when asked. */
export function SwitchboardPreview({ id }: { id: number }): ReactElement {
  const [lang, setLang] = useState<TranslationLanguage>(() => startLanguage(location.search, navigator.languages ?? []));
  const t = useMemo(() => viewerT(lang), [lang]);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const reload = useCallback(async () => {
    try {
      const r = await fetch(switchboardMapPath(id), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (r.ok) setLoad({ state: 'ready', map: (await r.json()) as SwitchboardMap });
      else
        setLoad(
          r.status === 404 || r.status === 401 || r.status === 403 ? { state: 'missing' } : { state: 'failed', status: r.status },
        );
    } catch {
      setLoad({ state: 'failed', status: 0 });
    }
  }, [id]);
  useEffect(() => {
    void reload();
  }, [reload]);
  const [zoomTo, setZoomTo] = useState<{ uri: string } | null>(null);
  // The canvas asks the preview to reload (its frames changed) or to show a frame.
  useEffect(() => {
    const listen = (e: MessageEvent) => {
      if (e.origin !== location.origin || e.source !== window.parent || e.source === window) return;
      const m = switchboardAction(e.data);
      if (m?.action === 'reload') void reload();
      else if (m?.action === 'zoomToFrame' && typeof m.args[0] === 'string') setZoomTo({ uri: m.args[0] });
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [reload]);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  if (load.state === 'ready')
    return <PreviewMap map={load.map} t={t} lang={lang} setLang={setLang} reload={reload} zoomTo={zoomTo} />;
  return <LoadMessage load={load} t={t} notFound={t('sb_not_found')} />;
}

function PreviewMap(props: {
  map: SwitchboardMap;
  t: ViewerT;
  lang: TranslationLanguage;
  setLang(l: TranslationLanguage): void;
  reload(): Promise<void>;
  zoomTo: { uri: string } | null;
}): ReactElement {
  const { map, t } = props;
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [selected, setSelected] = useState<Selection | null>(null);
  const [drawing, setDrawing] = useState<Drawing | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const globe = useRef<GlobeControl | undefined>(undefined);
  const colour = (frame: SwitchboardMapFrame) => COLOURS[map.frames.indexOf(frame) % COLOURS.length];

  // A reload brings new frame objects: the selection follows its frame and item, or goes.
  useEffect(() => {
    setSelected((s) => {
      if (!s) return s;
      const frame = map.frames.find((f) => f.id === s.frame.id);
      const feature = frame?.features.find((f) => f.id === s.feature.id);
      return frame && feature ? { frame, feature } : null;
    });
    setDrawing((d) => {
      const frame = d && map.frames.find((f) => f.id === d.frame.id && f.edit);
      return d && frame ? { ...d, frame } : null;
    });
  }, [map]);

  // The features' extent, with the extents the frames' services name.
  const extentOf = (frames: readonly SwitchboardMapFrame[]): Bbox | undefined => {
    const all = frames.flatMap((f) => f.imagery.map((i) => i.bbox).filter((b): b is Bbox => !!b));
    const features = featuresBbox(frames.flatMap((f) => f.features));
    if (features) all.push(features);
    if (!all.length) return undefined;
    return [
      Math.min(...all.map((b) => b[0])),
      Math.min(...all.map((b) => b[1])),
      Math.max(...all.map((b) => b[2])),
      Math.max(...all.map((b) => b[3])),
    ];
  };
  const [target, setTarget] = useState<CameraTarget | null>(() => {
    const bbox = extentOf(map.frames);
    return bbox ? { kind: 'extent', bbox } : null;
  });
  const zoom = (frames: readonly SwitchboardMapFrame[]) => {
    const bbox = extentOf(frames);
    if (bbox) setTarget({ kind: 'extent', bbox, duration: 1 });
  };
  useEffect(() => {
    const frame = props.zoomTo && map.frames.find((f) => f.uri === props.zoomTo!.uri);
    if (frame) zoom([frame]);
  }, [props.zoomTo]);

  const vectors = useMemo((): VectorLayer[] => {
    const layers: VectorLayer[] = map.frames
      .filter((f) => !hidden.has(f.id))
      .map((f) => ({ name: `frame:${f.id}`, features: f.features, color: colour(f) }));
    if (selected && !hidden.has(selected.frame.id))
      layers.push({ name: `frame:${selected.frame.id}`, features: [selected.feature], color: SELECTED_COLOUR, emphasis: true });
    return layers;
  }, [map, hidden, selected]);

  // WMS and WMTS frames as imagery, the first frame on top.
  const imagery = useMemo(
    (): DrawnImagery[] =>
      map.frames
        .filter((f) => !hidden.has(f.id))
        .flatMap((f) => f.imagery.map((i) => ({ ...i, opacity: i.opacity ?? 1 }) as DrawnImagery))
        .reverse(),
    [map, hidden],
  );

  const pick = (at: GlobePick) => {
    if (drawing) {
      setDrawing({ ...drawing, points: drawing.mode === 'Point' ? [[at.lon, at.lat]] : [...drawing.points, [at.lon, at.lat]] });
      return;
    }
    const frameId = at.feature && /^frame:(\d+)$/.exec(at.feature.source)?.[1];
    const frame = frameId ? map.frames.find((f) => f.id === Number(frameId)) : undefined;
    const feature = frame?.features.find((f) => f.id === at.feature!.item);
    setSelected(frame && feature ? { frame, feature } : null);
  };

  const save = async () => {
    if (!drawing) return;
    const geometry = drawnGeometry(drawing.mode, drawing.points);
    if (!geometry) return;
    setBusy(true);
    try {
      const { frame, replace } = drawing;
      const hash = frame.content_hash ? `?content_hash=${encodeURIComponent(frame.content_hash)}` : '';
      if (replace === undefined) {
        await send('POST', `/api/v1/datum/create-in-frame/${frame.id}/`, {
          feature: { type: 'Feature', geometry, properties: {} },
        });
      } else {
        const current = await fetch(`${frame.uri}content/?offset=${replace}&limit=1`, { credentials: 'same-origin' });
        const item = ((await current.json()) as { objects: { feature: Record<string, unknown> }[] }).objects[0];
        await send('PATCH', `${frame.uri}content/${replace}/${hash}`, { feature: { ...item.feature, geometry } });
      }
      setDrawing(null);
      setStatus(t('sb_saved', { name: frame.name }));
      await props.reload();
    } catch (e) {
      setStatus(t('sb_save_failed', { message: (e as Error).message }));
      // Refused because the frame changed meanwhile, for instance: show what it holds now.
      await props.reload();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (s: Selection) => {
    setBusy(true);
    try {
      const hash = s.frame.content_hash ? `?content_hash=${encodeURIComponent(s.frame.content_hash)}` : '';
      await send('DELETE', `${s.frame.uri}content/${String(s.feature.id)}/${hash}`);
      setSelected(null);
      setStatus(t('sb_deleted', { name: s.frame.name }));
      await props.reload();
    } catch (e) {
      setStatus(t('sb_save_failed', { message: (e as Error).message }));
      // Refused because the frame changed meanwhile, for instance: show what it holds now.
      await props.reload();
    } finally {
      setBusy(false);
    }
  };

  const drawLabel: Record<DrawMode, Parameters<ViewerT>[0]> = {
    Point: 'sb_draw_point',
    LineString: 'sb_draw_line',
    Polygon: 'sb_draw_area',
  };
  return (
    <div className="wbv-app">
      <header className="wbv-header">
        <div className="wbv-titles">
          <h1>{map.name}</h1>
          <p>{t('sb_subline')}</p>
        </div>
        <div className="wbv-tools">
          <button type="button" className="wbv-button" disabled={!extentOf(map.frames)} onClick={() => zoom(map.frames)}>
            {t('sb_show_all')}
          </button>
          {embedded() && (
            <button type="button" className="wbv-button" onClick={() => toCanvas('run')}>
              {t('sb_run')}
            </button>
          )}
          <LanguageSelect lang={props.lang} t={t} onChange={props.setLang} />
        </div>
      </header>
      <div className="wbv-body">
        <nav className="wbv-panel" aria-label={t('sb_frames')}>
          <h2>{t('sb_frames')}</h2>
          {map.frames.length ? (
            <ul className="wbv-entries">
              {map.frames.map((f) => (
                <li key={f.id} className="wbv-frame" data-frame={f.id}>
                  <div className="wbv-row">
                    <label>
                      <input
                        type="checkbox"
                        checked={!hidden.has(f.id)}
                        onChange={(e) => {
                          const next = new Set(hidden);
                          if (e.target.checked) next.delete(f.id);
                          else next.add(f.id);
                          setHidden(next);
                        }}
                      />{' '}
                      <span className="wbv-swatch" style={{ background: colour(f) }} aria-hidden="true" />
                      {f.name || t('sb_unnamed', { type: f.type_name })}
                    </label>
                  </div>
                  <p className="wbv-frame-meta">
                    {t('sb_count', { shown: f.features.length + f.imagery.length, total: f.total })}
                    {f.truncated && ` ${t('sb_truncated')}`}
                    {f.edit && ` · ${t('sb_editable')}`}
                  </p>
                  <div className="wbv-row">
                    <button type="button" className="wbv-button" disabled={!extentOf([f])} onClick={() => zoom([f])}>
                      {t('zoom_to', { name: f.name || f.type_name })}
                    </button>
                    {embedded() && (
                      <button type="button" className="wbv-button" onClick={() => toCanvas('openFrame', f.uri)}>
                        {t('sb_open_frame')}
                      </button>
                    )}
                  </div>
                  {f.edit && (
                    <div className="wbv-row" role="group" aria-label={t('sb_draw_in', { name: f.name || f.type_name })}>
                      {(['Point', 'LineString', 'Polygon'] as const).map((mode) => (
                        <button
                          key={mode}
                          type="button"
                          className="wbv-button"
                          aria-pressed={drawing?.frame.id === f.id && drawing.mode === mode && drawing.replace === undefined}
                          disabled={busy}
                          onClick={() => {
                            setSelected(null);
                            setDrawing({ frame: f, mode, points: [] });
                          }}
                        >
                          {t(drawLabel[mode])}
                        </button>
                      ))}
                    </div>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p>{t('sb_no_frames')}</p>
          )}
        </nav>
        <main className="wbv-map">
          <ViewerGlobe
            label={t('map', { name: map.name })}
            baseMapTileUrl={map.base_map_tile_url}
            imagery={imagery}
            vectors={vectors}
            target={target}
            onPick={pick}
            onPointer={() => undefined}
            control={globe}
            measure={drawing?.points ?? []}
            measureArea={drawing?.mode === 'Polygon'}
            onCamera={() => undefined}
          />
          {drawing && (
            <DrawingBox
              drawing={drawing}
              t={t}
              busy={busy}
              onCenter={() => {
                const at = globe.current?.center();
                if (at) pick({ ...at, feature: undefined });
              }}
              onUndo={() => setDrawing({ ...drawing, points: drawing.points.slice(0, -1) })}
              onSave={() => void save()}
              onCancel={() => setDrawing(null)}
            />
          )}
          {selected && !drawing && (
            <FeatureBox
              selection={selected}
              t={t}
              busy={busy}
              onClose={() => setSelected(null)}
              onDelete={() => void remove(selected)}
              onRedraw={(mode) => setDrawing({ frame: selected.frame, mode, replace: Number(selected.feature.id), points: [] })}
            />
          )}
          <p className="wbv-status" role="status" aria-live="polite">
            {status}
          </p>
        </main>
      </div>
    </div>
  );
}

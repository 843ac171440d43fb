import { useCallback, useEffect, useMemo, useRef, useState, type ReactElement } from '@werkbank/sdk/globe';
import { startExtent, translated, type ViewScene } from '../common/view-scene';
import { switchboardOfViewerPath } from '@werkbank/sdk';
import { sceneAddress, sharedCamera } from './viewer-address';
import { SwitchboardPreview } from './switchboard-preview';
import { PREVIEW_CAMERA_MESSAGE, PREVIEW_READY_MESSAGE, PREVIEW_SCENE_MESSAGE } from '../common/views-ids';
import { toolEnabled } from '../common/view-tools';
import type { CameraPosition, Poi, PoiGroup } from '../common/view-tree';
import type { TranslationLanguage } from '../common/view-translations';
import { LayerTree } from './layer-tree';
import { hasPlaces, Places, poiTarget } from './places';
import { SelectionWindow, selectAt, type Selected } from './selection-window';
import { ViewerGlobe, type CameraTarget, type GlobeControl, type GlobePick } from './viewer-globe';
import { formatArea, formatLength, measured, readout } from './measure';
import { startLanguage, viewerT, type ViewerT } from './viewer-i18n';
import { LanguageSelect, LoadMessage, type LoadState } from './viewer-parts';
import { drawnLayers, imageryOf, initialState, layerParams, timeRange, type LayerState } from './viewer-state';
import { TimeSlider } from './time-slider';

/** Whether the viewer runs in the view editor's preview frame. */
const isPreview = () => window.parent !== window && new URLSearchParams(location.search).get('preview') === '1';

/** The measure tool's box: what is measured, the hint, and the buttons (the map's centre adds a point by keyboard). */
function MeasureBox(props: { points: readonly [number, number][]; t: ViewerT; lang: string; onCenter(): void; onClear(): void }) {
  const { t, lang } = props;
  const m = measured(props.points);
  return (
    <section className="wbv-measure" aria-label={t('measure_result')}>
      <p>{t('measure_help')}</p>
      <p aria-live="polite">
        {t('distance', { value: formatLength(m.length, lang) })}
        {m.area !== null && (
          <>
            <br />
            {t('area', { value: formatArea(m.area, lang) })}
          </>
        )}
      </p>
      <button type="button" className="wbv-button" onClick={props.onCenter}>
        {t('measure_center')}
      </button>{' '}
      <button type="button" className="wbv-button" onClick={props.onClear}>
        {t('measure_clear')}
      </button>
    </section>
  );
}

type Load = LoadState<{ scene: ViewScene }>;

const wait = (seconds: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, Math.max(0, seconds) * 1000);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** The viewer: a view or frozen view, or a switchboard's frames in switchboard mode (decision 0090). */
export function ViewerApp(): ReactElement {
  const switchboard = switchboardOfViewerPath(location.pathname);
  return switchboard ? <SwitchboardPreview id={switchboard} /> : <ViewApp />;
}

/** The public viewer: a view (or frozen view) on the globe with its layer tree, places and tours. */
function ViewApp(): ReactElement {
  const [lang, setLang] = useState<TranslationLanguage>(() => startLanguage(location.search, navigator.languages ?? []));
  const t = useMemo(() => viewerT(lang), [lang]);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  useEffect(() => {
    // The editor's preview gets its scene from the editor, not from the saved view.
    if (isPreview()) return;
    const address = sceneAddress(location.pathname);
    if (!address) return setLoad({ state: 'missing' });
    fetch(address, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(async (r) =>
        setLoad(
          r.ok
            ? { state: 'ready', scene: (await r.json()) as ViewScene }
            : r.status === 404
              ? { state: 'missing' }
              : { state: 'failed', status: r.status },
        ),
      )
      .catch(() => setLoad({ state: 'failed', status: 0 }));
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
  }, [lang]);
  // In the view editor's preview frame: the editor sends the draft's scene (same origin only).
  useEffect(() => {
    if (!isPreview()) return;
    const listen = (e: MessageEvent) => {
      const data = e.data as { type?: string; scene?: ViewScene };
      if (e.origin === location.origin && e.source === window.parent && data?.type === PREVIEW_SCENE_MESSAGE && data.scene)
        setLoad({ state: 'ready', scene: data.scene });
    };
    window.addEventListener('message', listen);
    window.parent.postMessage({ type: PREVIEW_READY_MESSAGE }, location.origin);
    return () => window.removeEventListener('message', listen);
  }, []);
  if (load.state === 'ready') return <Scene scene={load.scene} lang={lang} setLang={setLang} />;
  return <LoadMessage load={load} t={t} notFound={t('not_found')} />;
}

function Scene({
  scene,
  lang,
  setLang,
}: {
  scene: ViewScene;
  lang: TranslationLanguage;
  setLang: (l: TranslationLanguage) => void;
}): ReactElement {
  const t = useMemo(() => viewerT(lang), [lang]);
  const tr = useCallback((text: string) => translated(scene, text, lang), [scene, lang]);
  const [layers, setLayers] = useState<LayerState>(() => initialState(scene.layergroup));
  // A new scene (the editor's preview) starts its layers afresh; the camera stays where it is.
  const first = useRef(scene);
  useEffect(() => {
    if (first.current !== scene) setLayers(initialState(scene.layergroup));
  }, [scene]);
  const drawn = useMemo(() => drawnLayers(scene.layergroup, layers), [scene, layers]);
  const times = useMemo(() => timeRange(scene.layergroup), [scene]);
  const imagery = useMemo(() => imageryOf(drawn, layers, scene.finalview), [drawn, layers, scene.finalview]);
  const home = useMemo((): CameraTarget | null => {
    if (scene.home) return { kind: 'camera', camera: scene.home, duration: 1.5 };
    // The view's start mode (a plug-in's choice, decision 0093).
    const start = scene.start;
    if (start?.kind === 'camera') return { kind: 'camera', camera: start.camera, duration: 1.5 };
    if (start?.kind === 'extent') return { kind: 'extent', bbox: start.bbox, duration: 1.5 };
    if (start?.kind === 'place') return { ...poiTarget(start.poi), duration: 1.5 };
    const extent = startExtent(scene.layergroup);
    return extent ? { kind: 'extent', bbox: extent, duration: 1.5 } : null;
  }, [scene]);
  const [target, setTarget] = useState<CameraTarget | null>(() => {
    const shared = sharedCamera(location.search);
    if (shared) return { kind: 'camera', camera: shared };
    return home ? { ...home, duration: 0 } : null;
  });
  const [status, setStatus] = useState('');
  const [selected, setSelected] = useState<Selected | null>(null);
  const [pointer, setPointer] = useState<GlobePick | undefined>();
  const [measuring, setMeasuring] = useState(false);
  const [points, setPoints] = useState<[number, number][]>([]);
  const globe = useRef<GlobeControl | undefined>(undefined);
  const camera = useRef<CameraPosition | null>(null);
  const tour = useRef<AbortController | null>(null);
  const [touring, setTouring] = useState(false);

  useEffect(() => {
    document.title = tr(scene.name);
  }, [scene, tr]);
  // The preview's start position follows the editor's.
  const homeKey = JSON.stringify(home);
  const shownHome = useRef(homeKey);
  useEffect(() => {
    if (shownHome.current === homeKey) return;
    shownHome.current = homeKey;
    if (home) setTarget({ ...home });
  }, [homeKey]);

  const pick = async (at: GlobePick) => {
    if (measuring) {
      setPoints((p) => [...p, [at.lon, at.lat]]);
      return;
    }
    // A new click's answer replaces the last one's message.
    setStatus('');
    try {
      const found = await selectAt(drawn, at, (l) => layerParams(l, layers, scene.finalview));
      setSelected(found);
      if (!found && drawn.some((l) => l.queryable)) setStatus(t('selection_none'));
    } catch {
      setStatus(t('selection_failed'));
    }
  };

  const showPoi = (poi: Poi) => {
    if (poi.layers.length)
      setLayers((s) => ({ ...s, on: { ...s.on, ...Object.fromEntries(poi.layers.map((l) => [l.id, l.visible])) } }));
    setTarget(poiTarget(poi));
  };

  const runTour = async (group: PoiGroup) => {
    tour.current?.abort();
    const control = new AbortController();
    tour.current = control;
    setTouring(true);
    const pois = group.pois.filter((p) => p.visible);
    for (const [i, poi] of pois.entries()) {
      if (control.signal.aborted) break;
      setStatus(t('tour_running', { name: tr(group.name), place: tr(poi.name), index: i + 1, count: pois.length }));
      showPoi(poi);
      await wait(poi.fly_duration + poi.wait_duration, control.signal);
    }
    if (tour.current === control) {
      tour.current = null;
      setTouring(false);
    }
  };
  const stopTour = () => {
    tour.current?.abort();
    tour.current = null;
    setTouring(false);
    setStatus('');
  };

  const chooseLanguage = (l: TranslationLanguage) => {
    setLang(l);
    const url = new URL(location.href);
    url.searchParams.set('lang', l);
    history.replaceState(null, '', url);
  };

  const share = async () => {
    const url = new URL(location.href);
    const c = camera.current;
    if (c) url.searchParams.set('camera', [c.lon, c.lat, c.height, c.heading, c.pitch, c.roll].join(','));
    url.searchParams.set('lang', lang);
    try {
      await navigator.clipboard.writeText(url.href);
      setStatus(t('share_copied'));
    } catch {
      setStatus(`${t('share_manual')} ${url.href}`);
    }
  };

  const fullscreen = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      setStatus(t('fullscreen_failed'));
    }
  };

  const name = tr(scene.name);
  return (
    <div className="wbv-app">
      <header className="wbv-header">
        <div className="wbv-titles">
          <h1>{name}</h1>
          {scene.subline && <p>{tr(scene.subline)}</p>}
        </div>
        <div className="wbv-tools">
          <button type="button" className="wbv-button" disabled={!home} onClick={() => home && setTarget({ ...home })}>
            {t('home')}
          </button>
          {toolEnabled(scene.config, 'measure') && (
            <button
              type="button"
              className="wbv-button"
              aria-pressed={measuring}
              onClick={() => {
                setMeasuring(!measuring);
                setPoints([]);
              }}
            >
              {t(measuring ? 'measure_stop' : 'measure')}
            </button>
          )}
          {toolEnabled(scene.config, 'share') && (
            <button type="button" className="wbv-button" onClick={() => void share()}>
              {t('share')}
            </button>
          )}
          {toolEnabled(scene.config, 'fullscreen') && (
            <button type="button" className="wbv-button" onClick={() => void fullscreen()}>
              {t('fullscreen')}
            </button>
          )}
          <LanguageSelect lang={lang} t={t} onChange={chooseLanguage} />
        </div>
      </header>
      <div className="wbv-body">
        <nav className="wbv-panel" aria-label={t('panel')}>
          {scene.kind === 'finalview' && <p className="wbv-note">{t('frozen')}</p>}
          {scene.description && <p className="wbv-description">{tr(scene.description)}</p>}
          <h2>{t('layers')}</h2>
          {times && (
            <TimeSlider
              range={times}
              value={layers.time ?? null}
              onChange={(time) => setLayers((s) => ({ ...s, time }))}
              t={t}
              lang={lang}
            />
          )}
          {scene.layergroup.layers.length || scene.layergroup.layergroups.length ? (
            <LayerTree
              root={scene.layergroup}
              state={layers}
              onState={setLayers}
              onZoom={(bbox) => setTarget({ kind: 'extent', bbox, duration: 1.5 })}
              viewBox={() => globe.current?.viewBox()}
              tr={tr}
              t={t}
              lang={lang}
              finalview={scene.finalview}
            />
          ) : (
            <p>{t('no_layers')}</p>
          )}
          {hasPlaces(scene.poigroup) && (
            <>
              <h2>{t('places')}</h2>
              {touring && (
                <button type="button" className="wbv-button" onClick={stopTour}>
                  {t('stop_tour')}
                </button>
              )}
              <Places root={scene.poigroup} tr={tr} t={t} onPoi={showPoi} onTour={(g) => void runTour(g)} />
            </>
          )}
        </nav>
        <main className="wbv-map">
          <ViewerGlobe
            label={t('map', { name })}
            baseMapTileUrl={scene.base_map_tile_url}
            imagery={imagery}
            target={target}
            onPick={(at) => void pick(at)}
            onPointer={toolEnabled(scene.config, 'coordinates') ? setPointer : () => undefined}
            control={globe}
            measure={points}
            onCamera={(c) => {
              camera.current = c;
              if (isPreview()) window.parent.postMessage({ type: PREVIEW_CAMERA_MESSAGE, camera: c }, location.origin);
            }}
          />
          {selected && <SelectionWindow selected={selected} tr={tr} lang={lang} t={t} onClose={() => setSelected(null)} />}
          {measuring && (
            <MeasureBox
              points={points}
              t={t}
              lang={lang}
              onCenter={() => {
                const at = globe.current?.center();
                if (at) setPoints((p) => [...p, [at.lon, at.lat]]);
              }}
              onClear={() => setPoints([])}
            />
          )}
          {pointer && (
            <p className="wbv-coords">
              <span className="wbv-sr">{t('coordinates')}: </span>
              {t('coords', readout(pointer.lon, pointer.lat, lang))}
            </p>
          )}
          <p className="wbv-status" role="status" aria-live="polite">
            {status}
          </p>
        </main>
      </div>
    </div>
  );
}

import { useEffect, useMemo, useRef, useState, useNavigate, useParams } from '@werkbank/sdk/react';
import { Callout, ContextMenuPopover, NonIdealState, Spinner } from '@werkbank/sdk/ui';
import {
  ApiClient,
  ConfigStore,
  ConfirmService,
  NotificationService,
  observer,
  Registries,
  TypeHierarchy,
  useService,
  useT,
} from '@werkbank/sdk/browser';
import { FUNCTION_DRAG_TYPE } from '../dialogs/function-browser-item';
import { useRecordSwitchboardVisit } from '../lists/use-record-switchboard-visit';
import { ActiveCanvas } from './active-canvas';
import { CanvasController } from './canvas-controller';
import { CanvasContextMenu, type MenuTarget } from './canvas-context-menu';
import { CanvasDialogs } from './canvas-dialogs';
import { CanvasTitleBar } from './canvas-title-bar';
import { ContextViewPanel } from './context-view-panel';
import { HoverPreview } from './hover-preview';
import { ReteCanvas } from './rete-canvas';
import { CanvasDetail } from './canvas-view-context';
import { CanvasPortalHost, CanvasPortals } from './canvas-portals';
import { kindOf } from './canvas-store';
import { useCanvasKeys, useReloadPreview, useViewerMessages } from './canvas-events';
import { dropToInsert } from './canvas-drop';

/**
 * The canvas screen at /switchboard/{switchboard_id} (spec 000 §2): reloads on mount and when the id
 * changes (one controller per id), starts with the preview hidden, and hosts the Rete canvas, the
 * title bar, the context view, the preview frame and the dialogs.
 */
const CanvasScreen = observer(function CanvasScreen() {
  const id = Number(useParams().switchboardId);
  return Number.isInteger(id) && id > 0 ? (
    <CanvasForId key={id} id={id} />
  ) : (
    <NonIdealState icon="error" title={useT('switchboards')('canvas.not_found')} />
  );
});
export default CanvasScreen;

/** The origin of the configured viewer address (undefined without one or when it is not a URL). */
function viewerOrigin(template: string | undefined): string | undefined {
  if (!template) return undefined;
  try {
    return new URL(template.replace('{id}', '0').replace('{slug}', '0'), window.location.href).origin;
  } catch {
    return undefined;
  }
}

const CanvasForId = observer(function CanvasForId({ id }: { id: number }) {
  const api = useService(ApiClient);
  const notify = useService(NotificationService);
  const confirm = useService(ConfirmService);
  const types = useService(TypeHierarchy);
  const config = useService(ConfigStore);
  const registries = useService(Registries);
  const active = useService(ActiveCanvas);
  const navigate = useNavigate();
  const t = useT('switchboards');
  const portals = useMemo(() => new CanvasPortals(), [id]);
  const c = useMemo(() => new CanvasController(api, notify, confirm, types, (k, o) => String(t(k, o)), id), [id]);
  const container = useRef<HTMLDivElement>(null);
  const [menu, setMenu] = useState<MenuTarget>();
  const [renaming, setRenaming] = useState(false);
  const [menuOffset, setMenuOffset] = useState<{ left: number; top: number }>();
  useRecordSwitchboardVisit(c.store.switchboard);

  useEffect(() => {
    active.current = c;
    void c.store.load();
    void c.loadTypes();
    c.connect();
    return () => {
      if (active.current === c) active.current = undefined;
      c.dispose();
    };
  }, [c]);

  const loaded = !!c.store.switchboard;
  useEffect(() => {
    if (!loaded || !container.current) return;
    const rete = new ReteCanvas(
      container.current,
      c.store,
      {
        store: c.store,
        t: c.t,
        renderers: () => registries.nodeRenderers.all(),
        nodeRunsEnabled: config.isEnabled('node_runs'),
        openFrame: (uri) => c.openDialog({ kind: 'frame', uri }),
        openNode: (uri, tab) => c.openDialog({ kind: 'node', uri, tab }),
        stopNode: (uri) => c.stopNode(uri),
        editNote: (uri) => c.store.writable && c.openDialog({ kind: 'note', uri }),
        hover: (target) => c.setHover(target),
        dictDrafts: c.dictDrafts,
        renameDictKey: (n, p, from, to) => c.renameDictKey(n, p, from, to),
        detail: new CanvasDetail(),
      },
      {
        onConnect: (a, b, replacing) => c.onConnect(a, b, replacing),
        onDisconnect: (l) => c.onDisconnect(l),
        onDropLink: (from, client) => {
          if (!c.store.writable || kindOf(from.uri) !== 'node') return;
          setMenuOffset({ left: client.x, top: client.y });
          setMenu({ kind: 'drop', uri: from.uri, socket: from, at: rete.pointAt(client.x, client.y) });
        },
        onMoved: (m) => c.onMoved(m),
        onSelect: (u) => c.onSelect(u),
        onViewport: (v) => c.onViewport(v),
        onContextMenu: (target, e) => {
          setMenuOffset({ left: e.clientX, top: e.clientY });
          setMenu({ ...target, at: rete.pointAt(e.clientX, e.clientY) });
        },
      },
      portals,
    );
    void c.attach(rete);
  }, [loaded, c]);

  useCanvasKeys(c);
  const previewFrame = useRef<HTMLIFrameElement>(null);
  const previewTemplate = config.config.viewer_urls?.switchboard;
  useViewerMessages(c, previewFrame, viewerOrigin(previewTemplate));
  useReloadPreview(c, previewFrame, viewerOrigin(previewTemplate));

  if (c.store.error && !loaded) return <NonIdealState icon="error" title={t('canvas.load_failed')} description={c.store.error} />;
  const sb = c.store.switchboard;
  const preview = config.config.viewer_urls?.switchboard;
  return (
    <div className="wb-canvas-page" data-testid="switchboard-canvas" data-loaded={loaded ? 'yes' : 'no'}>
      <CanvasTitleBar c={c} renaming={renaming} setRenaming={setRenaming} />
      {!c.store.connected && (
        <Callout intent="warning" icon="offline" data-testid="connection-lost">
          {t('live.interrupted')}
        </Callout>
      )}
      <div className="wb-canvas-body">
        <div
          ref={container}
          className="wb-canvas"
          data-testid="canvas-area"
          onDragOver={(e) => {
            if (c.store.writable) e.preventDefault();
          }}
          onDrop={(e) => {
            e.preventDefault();
            const result = dropToInsert(e.dataTransfer, FUNCTION_DRAG_TYPE, c.t);
            if (result && c.rete) void c.insert(result, c.rete.pointAt(e.clientX, e.clientY));
          }}
        >
          <CanvasPortalHost portals={portals} />
        </div>
        {!loaded && <Spinner className="wb-canvas-spinner" />}
        {c.previewOpen && (
          <div className="wb-canvas-preview" data-testid="preview">
            {preview && sb ? (
              <iframe
                ref={previewFrame}
                title={t('title.preview')}
                // The viewer may run scripts and reach its own origin, never navigate this page.
                sandbox="allow-scripts allow-same-origin allow-popups allow-forms"
                src={preview.replace('{id}', String(sb.id)).replace('{slug}', String(sb.id))}
              />
            ) : (
              <NonIdealState icon="eye-off" title={t('preview.none')} description={t('preview.none_hint')} />
            )}
          </div>
        )}
        {c.contextViewOpen && sb && (
          <ContextViewPanel
            uri={sb.resource_uri}
            t={c.t}
            onClose={() => c.toggleContextView()}
            onOpen={(route) => navigate(route)}
          />
        )}
      </div>
      <HoverPreview c={c} />
      <ContextMenuPopover
        isOpen={!!menu}
        targetOffset={menuOffset}
        onClose={() => setMenu(undefined)}
        content={menu ? <CanvasContextMenu c={c} target={menu} close={() => setMenu(undefined)} /> : <span />}
      />
      <CanvasDialogs c={c} />
    </div>
  );
});

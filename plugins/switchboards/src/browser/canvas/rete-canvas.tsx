import {
  AreaExtensions,
  AreaPlugin,
  ClassicPreset,
  ConnectionPlugin,
  ConnectionPresets,
  NodeEditor,
  ReactPlugin,
  ReactPresets,
  type GetSchemes,
  type ReactArea2D,
  type SocketData,
} from '@werkbank/sdk/canvas';
import { reaction, type IReactionDisposer } from '@werkbank/sdk/browser';
import type { Frame, Link, Note, SbNode } from '../../common/switchboard-types';
import { kindOf, type CanvasStore } from './canvas-store';
import { slotKeyOf, slotsOf, type Slot } from './port-slots';
import type { CanvasViewContext, SocketEmit } from './canvas-view-context';
import { CanvasNodeView } from './node-view';
import { CanvasFrameView, CanvasNoteView } from './frame-view';
import { CanvasLinkView, CanvasSocket } from './link-view';
import { ConnectionGesture, type GestureHandlers, type SocketRef } from './connection-gesture';
import { BatchedSocketPosition } from './socket-positions';
import type { CanvasPortals } from './canvas-portals';
import { CanvasLinksLayer, LinksLayer } from './links-layer';

/** spec 000 §9: the viewport is stored relative to this origin. */
export const CANVAS_OFFSET_ORIGIN = 1000;

const socket = new ClassicPreset.Socket('werkbank');
/** Objects off screen are added in portions of this many after the first drawing (ReteCanvas.sync). */
const LATER_PORTION = 100;
/** Items off screen switch their level of detail in portions of this many per frame (ReteCanvas.switchDetail). */
const DETAIL_PORTION = 100;
/** Below this zoom the canvas hides the small texts of nodes and frames. */
export const FAR_ZOOM = 0.5;
/** Below this zoom (12 px text is 4 px high) the titles are hidden too. */
export const FARTHER_ZOOM = 1 / 3;

/** A node, frame or note on the Rete canvas; its id is the object's resource address. */
export class CanvasItem extends ClassicPreset.Node {
  width = 220;
  height = 80;
  override selected = false;
  slots: Slot[] = [];
  constructor(
    readonly uri: string,
    readonly kind: 'node' | 'frame' | 'note',
  ) {
    super(uri);
    this.id = uri;
  }
}
export class CanvasLink extends ClassicPreset.Connection<CanvasItem, CanvasItem> {
  constructor(
    readonly uri: string,
    source: CanvasItem,
    sourceKey: string,
    target: CanvasItem,
    targetKey: string,
  ) {
    super(source, sourceKey as never, target, targetKey as never);
    this.id = uri;
  }
}
type Schemes = GetSchemes<CanvasItem, CanvasLink>;

/** A socket Rete reports, as the gesture names it. */
function socketRef(s: SocketData | null | undefined): SocketRef | null {
  return s ? { uri: s.nodeId, key: String(s.key), side: s.side } : null;
}
type AreaExtra = ReactArea2D<Schemes>;

/** What the canvas asks of its screen. */
export interface CanvasHandlers {
  /** The user drew a connection between two sockets (either direction); see GestureHandlers. */
  onConnect: GestureHandlers['onConnect'];
  /** The user pulled a link off its socket and dropped it nowhere. */
  onDisconnect(linkUri: string): void;
  /** The user drew from a socket and let go over empty canvas, at this client position. */
  onDropLink(from: SocketRef, client: { x: number; y: number }): void;
  onMoved(moves: Array<{ uri: string; from: { x: number; y: number }; to: { x: number; y: number } }>): void;
  onContextMenu(target: { kind: 'canvas' | 'item' | 'link'; uri?: string }, event: MouseEvent): void;
  onSelect(uris: string[]): void;
  onViewport(t: { x: number; y: number; k: number }): void;
}

/**
 * The switchboard canvas on Rete.js v2 (DESIGN §4): mirrors the CanvasStore into a Rete editor —
 * nodes, frames and notes as Rete nodes, links as connections — and turns what the user does into
 * calls of `handlers`. Rete never decides a connection: `connectioncreate` is refused and handed to
 * the screen, which asks the server; the link appears when the store has it.
 */
export class ReteCanvas {
  readonly editor = new NodeEditor<Schemes>();
  readonly area: AreaPlugin<Schemes, AreaExtra>;
  private readonly selector = AreaExtensions.selector();
  private syncing = 0;
  private readonly disposers: IReactionDisposer[] = [];
  private dragging = false;
  private readonly gesture: ConnectionGesture;
  /** The sync under way, and whether another was asked for meanwhile. */
  private syncRun: Promise<void> | undefined;
  private syncAgain = false;
  /** Where the pointer was last seen (client coordinates): where a dropped link lets go. */
  private pointer = { x: 0, y: 0 };
  private readonly positions = new BatchedSocketPosition<Schemes, AreaExtra>();
  /** Every link, drawn in one SVG (links-layer.tsx); Rete's connection views stay empty. */
  readonly links = new LinksLayer((nodeId, side, key, change) => this.positions.listen(nodeId, side, key, change));

  constructor(
    container: HTMLElement,
    private readonly store: CanvasStore,
    private readonly ctx: CanvasViewContext,
    private readonly handlers: CanvasHandlers,
    portals: CanvasPortals,
  ) {
    this.area = new AreaPlugin<Schemes, AreaExtra>(container);
    const connection = new ConnectionPlugin<Schemes, AreaExtra>();
    this.gesture = new ConnectionGesture({
      onConnect: (from, to, replacing) => handlers.onConnect(from, to, replacing),
      onDisconnect: (uri) => handlers.onDisconnect(uri),
      onDropLink: (from) => handlers.onDropLink(from, this.pointer),
    });
    // Every view is a portal of the screen's one React tree (CanvasPortals), not a React root of its own.
    const render = new ReactPlugin<Schemes, AreaExtra>({ createRoot: portals.createRoot });
    // Components bound to the context once (stable identities: React keeps their state).
    type ItemProps = { data: CanvasItem; emit: unknown };
    const NodeView = (p: ItemProps) => <CanvasNodeView data={p.data} emit={p.emit as SocketEmit} ctx={ctx} />;
    const FrameView = (p: ItemProps) => <CanvasFrameView data={p.data} emit={p.emit as SocketEmit} ctx={ctx} />;
    const NoteView = (p: ItemProps) => <CanvasNoteView data={p.data} ctx={ctx} />;
    // Only the connection being drawn (it has a loose end) is a React view of its own.
    const LinkView = (p: { data: CanvasLink }) => <CanvasLinkView data={p.data} ctx={ctx} />;
    render.addPreset(
      ReactPresets.classic.setup({
        socketPositionWatcher: this.positions,
        customize: {
          node: (data) => (data.payload.kind === 'frame' ? FrameView : data.payload.kind === 'note' ? NoteView : NodeView),
          connection: (data) => ('start' in data || 'end' in data ? LinkView : (null as unknown as typeof LinkView)),
          socket: () => CanvasSocket,
        },
      }),
    );
    connection.addPreset(ConnectionPresets.classic.setup());
    this.editor.use(this.area);
    this.area.use(connection);
    this.area.use(render);
    AreaExtensions.selectableNodes(this.area, this.selector, { accumulating: AreaExtensions.accumulateOnCtrl() });
    // The links' layer: above the items (as links drawn after their items were), at the canvas origin.
    const layer = document.createElement('div');
    Object.assign(layer.style, { position: 'absolute', left: '0', top: '0', zIndex: '1' });
    this.area.area.content.add(layer);
    portals.createRoot(layer).render(
      <CanvasLinksLayer
        layer={this.links}
        events={{
          ctx,
          contextMenu: (uri, event) => {
            const context = this.editor.getConnection(uri);
            if (context) void this.area.emit({ type: 'contextmenu', data: { event, context } });
          },
        }}
      />,
    );
    this.editor.addPipe((c) => {
      if (this.syncing) return c;
      if (c.type === 'connectioncreate') {
        const { source, sourceOutput, target, targetInput } = c.data;
        this.gesture.created({ uri: source, key: String(sourceOutput) }, { uri: target, key: String(targetInput) });
        return undefined;
      }
      // Taken off the canvas only: the server hears of it when the gesture ends (ConnectionGesture).
      if (c.type === 'connectionremove') this.gesture.removed(c.data.id);
      return c;
    });
    // What is connected is drawn (the store's links while syncing, the gesture's while drawing).
    this.editor.addPipe((c) => {
      if (c.type === 'connectioncreated') {
        const { id, source, sourceOutput, target, targetInput } = c.data;
        this.links.add(id, source, String(sourceOutput), target, String(targetInput));
      }
      if (c.type === 'connectionremoved') this.links.remove(c.data.id);
      return c;
    });
    connection.addPipe((c) => {
      if (c.type === 'connectiondrop') {
        const { initial, socket, created } = c.data;
        this.gesture.dropped(socketRef(initial) ?? undefined, socketRef(socket), created);
      }
      return c;
    });
    this.area.addPipe((c) => {
      if (c.type === 'contextmenu') {
        c.data.event.preventDefault();
        c.data.event.stopPropagation();
        const t = c.data.context;
        if (t === 'root') this.handlers.onContextMenu({ kind: 'canvas' }, c.data.event);
        else if (t instanceof CanvasLink) this.handlers.onContextMenu({ kind: 'link', uri: t.uri }, c.data.event);
        else if (t instanceof CanvasItem) {
          if (!this.selector.isSelected({ id: t.id, label: 'node' })) void this.select([t.id]);
          this.handlers.onContextMenu({ kind: 'item', uri: t.uri }, c.data.event);
        }
        return undefined;
      }
      if (c.type === 'nodepicked') {
        this.dragging = true;
        queueMicrotask(() => this.handlers.onSelect(this.selected()));
      }
      if (c.type === 'nodedragged') {
        this.dragging = false;
        this.reportMoves();
      }
      if (c.type === 'pointermove' || c.type === 'pointerup') this.pointer = { x: c.data.event.clientX, y: c.data.event.clientY };
      if (c.type === 'pointerdown' && c.data.event.target === container)
        queueMicrotask(() => this.handlers.onSelect(this.selected()));
      if (c.type === 'translated' || c.type === 'zoomed') {
        const { x, y, k } = this.area.area.transform;
        // Zoomed far out, texts are too small to read: hide them (same layout, far less to paint).
        container.classList.toggle('wb-canvas-far', k < FAR_ZOOM);
        container.classList.toggle('wb-canvas-farther', k < FARTHER_ZOOM);
        // Farther still, items are drawn as boxes with their sockets (level of detail).
        if (k < FARTHER_ZOOM !== this.ctx.detail.far) this.switchDetail(k < FARTHER_ZOOM);
        this.handlers.onViewport({ x, y, k });
      }
      return c;
    });
    this.disposers.push(
      reaction(
        () => this.store.revision,
        () => void this.sync(),
        { fireImmediately: false },
      ),
    );
  }

  /** The addresses of the selected nodes, frames and notes. */
  selected(): string[] {
    return [...this.selector.entities.values()].map((e) => e.id);
  }

  async select(uris: string[]): Promise<void> {
    await this.selector.unselectAll();
    for (const uri of uris) {
      const item = this.editor.getNode(uri);
      if (!item) continue;
      item.selected = true;
      await this.area.update('node', uri);
      await this.selector.add(
        {
          id: uri,
          label: 'node',
          translate: async (dx, dy) => {
            const v = this.area.nodeViews.get(uri);
            if (v) await v.translate(v.position.x + dx, v.position.y + dy);
          },
          unselect: async () => {
            item.selected = false;
            await this.area.update('node', uri);
          },
        },
        true,
      );
    }
    this.handlers.onSelect(this.selected());
  }

  /** Restores the saved viewport (spec 000 §4: once, from the saved offset and zoom). */
  async restoreViewport(offsetX: number, offsetY: number, zoom: number): Promise<void> {
    const a = this.area.area;
    await a.zoom(zoom, 0, 0);
    await a.translate(offsetX - CANVAS_OFFSET_ORIGIN, offsetY - CANVAS_OFFSET_ORIGIN);
  }

  async zoomToFit(): Promise<void> {
    const nodes = this.editor.getNodes();
    if (nodes.length) await AreaExtensions.zoomAt(this.area, nodes, { scale: 0.9 });
  }

  /** The canvas point under a client position (drops, context menus). */
  pointAt(clientX: number, clientY: number): { x: number; y: number } {
    const rect = this.area.container.getBoundingClientRect();
    const { x, y, k } = this.area.area.transform;
    return { x: Math.round((clientX - rect.left - x) / k), y: Math.round((clientY - rect.top - y) / k) };
  }

  /** The canvas point in the middle of what is visible (keyboard inserts). */
  center(): { x: number; y: number } {
    const rect = this.area.container.getBoundingClientRect();
    return this.pointAt(rect.left + rect.width / 2 - 110, rect.top + rect.height / 3);
  }

  private reportMoves(): void {
    const moves = [];
    for (const uri of new Set([...this.selected()])) {
      const view = this.area.nodeViews.get(uri);
      const obj = this.store.object(uri) as SbNode | Frame | Note | undefined;
      if (!view || !obj || kindOf(uri) === 'link') continue;
      const to = { x: Math.round(view.position.x), y: Math.round(view.position.y) };
      moves.push({ uri, from: { x: obj.ui_x, y: obj.ui_y }, to });
    }
    if (moves.length) this.handlers.onMoved(moves);
  }

  /**
   * Brings the Rete editor in line with the store (after load, live events and own edits). Runs one
   * at a time: a call while one runs makes it run once more, and resolves after that run.
   */
  sync(): Promise<void> {
    if (this.syncRun) {
      this.syncAgain = true;
      return this.syncRun;
    }
    this.syncRun = (async () => {
      try {
        do {
          this.syncAgain = false;
          await this.syncOnce();
        } while (this.syncAgain);
      } finally {
        this.syncRun = undefined;
      }
    })();
    return this.syncRun;
  }

  /** The part of the canvas on screen, in canvas coordinates, with a margin of `margin` screens. */
  private visibleRect(margin = 0.5): { left: number; top: number; right: number; bottom: number } {
    const { x, y, k } = this.area.area.transform;
    const w = this.area.container.clientWidth / k;
    const h = this.area.container.clientHeight / k;
    const left = -x / k;
    const top = -y / k;
    return { left: left - w * margin, top: top - h * margin, right: left + w * (1 + margin), bottom: top + h * (1 + margin) };
  }

  /** Whether an item at this canvas position lies (partly) in `v`. */
  private static within(v: ReturnType<ReteCanvas['visibleRect']>, x: number, y: number): boolean {
    return x < v.right && x + 240 > v.left && y < v.bottom && y + 200 > v.top;
  }

  /**
   * Changes the level of detail (CanvasDetail): the items on screen at once, the others after the
   * screen has been drawn, DETAIL_PORTION per frame.
   */
  private switchDetail(far: boolean): void {
    const v = this.visibleRect(0);
    const later: string[] = [];
    for (const [id, view] of this.area.nodeViews) if (!ReteCanvas.within(v, view.position.x, view.position.y)) later.push(id);
    this.ctx.detail.setFar(far, later);
    this.ctx.detail.releaseLater(DETAIL_PORTION);
  }

  /**
   * Sets the viewport that fits every object (as zoom-to-fit does, from the objects' stored positions
   * and the items' sizes), before they are drawn: a big switchboard then draws what is visible first.
   */
  async fitStored(): Promise<void> {
    const objects = [...this.store.nodes.values(), ...this.store.frames.values(), ...this.store.notes.values()];
    if (!objects.length) return;
    const probe = new CanvasItem('', 'node');
    const left = Math.min(...objects.map((o) => o.ui_x));
    const top = Math.min(...objects.map((o) => o.ui_y));
    const right = Math.max(...objects.map((o) => o.ui_x + probe.width));
    const bottom = Math.max(...objects.map((o) => o.ui_y + probe.height));
    const w = this.area.container.clientWidth;
    const h = this.area.container.clientHeight;
    const k = Math.min((h / (bottom - top)) * 0.9, (w / (right - left)) * 0.9, 1);
    const a = this.area.area;
    a.transform.x = w / 2 - ((left + right) / 2) * k;
    a.transform.y = h / 2 - ((top + bottom) / 2) * k;
    await a.zoom(k, 0, 0);
  }

  private async syncOnce(): Promise<void> {
    this.syncing++;
    try {
      const wanted = new Map<string, { kind: 'node' | 'frame' | 'note'; obj: SbNode | Frame | Note }>();
      for (const n of this.store.nodes.values()) wanted.set(n.resource_uri, { kind: 'node', obj: n });
      for (const f of this.store.frames.values()) wanted.set(f.resource_uri, { kind: 'frame', obj: f });
      for (const n of this.store.notes.values()) wanted.set(n.resource_uri, { kind: 'note', obj: n });
      const links = [...this.store.links.values()];
      for (const c of this.editor.getConnections()) {
        const l = this.store.links.get(c.id);
        if (!l || !this.fits(c, l)) await this.editor.removeConnection(c.id);
      }
      for (const item of this.editor.getNodes()) {
        if (!wanted.has(item.id)) {
          await this.selector.remove({ id: item.id, label: 'node' });
          await this.editor.removeNode(item.id);
        }
      }
      // What is on screen first; the rest after the canvas has been drawn, in portions (a big switchboard
      // is usable before every object has arrived).
      const v = this.visibleRect();
      const onScreen = (o: SbNode | Frame | Note) => ReteCanvas.within(v, o.ui_x, o.ui_y);
      const entries = [...wanted];
      const first = entries.filter(([uri, { obj }]) => onScreen(obj) || this.editor.getNode(uri));
      const later = entries.filter(([uri, { obj }]) => !onScreen(obj) && !this.editor.getNode(uri));
      await this.syncItems(first, links);
      for (let i = 0; i < later.length; i += LATER_PORTION) {
        await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        await this.syncItems(later.slice(i, i + LATER_PORTION), links);
      }
    } finally {
      this.syncing--;
    }
  }

  /** Adds or updates these items, then adds the links whose two ends are on the canvas. */
  private async syncItems(
    items: Array<[string, { kind: 'node' | 'frame' | 'note'; obj: SbNode | Frame | Note }]>,
    links: Link[],
  ): Promise<void> {
    for (const [uri, { kind, obj }] of items) {
      let item = this.editor.getNode(uri);
      const fresh = !item;
      if (!item) item = new CanvasItem(uri, kind);
      if (kind === 'node') this.setSlots(item, obj as SbNode);
      else if (kind === 'frame' && fresh) {
        item.addInput('in', new ClassicPreset.Input(socket, '', false));
        item.addOutput('out', new ClassicPreset.Output(socket, '', true));
      }
      if (fresh) {
        await this.editor.addNode(item);
        await this.area.translate(uri, { x: obj.ui_x, y: obj.ui_y });
      } else {
        const view = this.area.nodeViews.get(uri);
        const picked = this.dragging && this.selector.isSelected({ id: uri, label: 'node' });
        if (view && !picked && (view.position.x !== obj.ui_x || view.position.y !== obj.ui_y)) {
          await this.area.translate(uri, { x: obj.ui_x, y: obj.ui_y });
        }
        await this.area.update('node', uri);
      }
    }
    for (const l of links) {
      if (this.editor.getConnection(l.resource_uri)) continue;
      const node = this.editor.getNode(l.node);
      const frame = this.editor.getNode(l.frame);
      if (!node || !frame) continue;
      const c = l.is_input
        ? new CanvasLink(l.resource_uri, frame, 'out', node, slotKeyOf(l))
        : new CanvasLink(l.resource_uri, node, l.name, frame, 'in');
      await this.editor.addConnection(c);
    }
  }

  /** Whether a Rete connection still draws the link as it is (slots can move when a port's links change). */
  private fits(c: CanvasLink, l: Link): boolean {
    return l.is_input ? c.source === l.frame && c.targetInput === slotKeyOf(l) : c.source === l.node && c.target === l.frame;
  }

  /** Sets a node's sockets from its ports and links; changes only what differs. */
  private setSlots(item: CanvasItem, node: SbNode): void {
    const own = this.store.linksOf(node.resource_uri).filter((l) => l.node === node.resource_uri);
    const slots = node.ports.filter((p) => p.is_input).flatMap((p) => slotsOf(p, own));
    const keys = new Set(slots.map((s) => s.key));
    for (const k of Object.keys(item.inputs)) if (!keys.has(k)) item.removeInput(k);
    for (const s of slots) if (!item.hasInput(s.key)) item.addInput(s.key, new ClassicPreset.Input(socket, s.label, false));
    for (const p of node.ports.filter((x) => !x.is_input)) {
      if (!item.hasOutput(p.name)) item.addOutput(p.name, new ClassicPreset.Output(socket, p.name, true));
    }
    item.slots = slots;
  }

  dispose(): void {
    for (const d of this.disposers) d();
    this.links.dispose();
    this.area.destroy();
  }
}

import {
  makeAutoObservable,
  runInAction,
  type ApiClient,
  type ConfirmService,
  type NotificationService,
  type TypeRegistry,
} from '@werkbank/sdk/browser';
import { canLink } from '../../common/can-link';
import { typeName, type Frame, type FunctionInfo, type Port } from '../../common/switchboard-types';
import type { SocketRef } from './connection-gesture';
import { portNameOfKey } from './port-slots';
import type { InsertResult } from '../dialogs/insert-result';
import { CanvasActions, type LinkSpec, type Point } from './canvas-actions';
import { CanvasInserts } from './canvas-inserts';
import { CanvasStore, kindOf } from './canvas-store';
import { ServerTypes } from './server-types';
import { LiveConnection, liveUrl, type SocketFactory } from './live-connection';
import { CANVAS_OFFSET_ORIGIN, type CanvasHandlers, type ReteCanvas } from './rete-canvas';

/** spec 000 §9: later viewport moves are saved after this debounce, only if changed. */
export const VIEWPORT_SAVE_DEBOUNCE_MS = 1000;

/** How long the pointer rests on a frame or link before its data shows. */
export const HOVER_DELAY_MS = 300;

export type CanvasDialog =
  | { kind: 'insert'; mode: 'data' | 'function' | 'note'; at?: Point }
  | { kind: 'frame'; uri: string; tab?: 'upload' }
  | { kind: 'node'; uri: string; tab?: 'info' | 'runs' }
  | { kind: 'note'; uri: string }
  | { kind: 'intermediate'; link: string }
  | { kind: 'settings' };

type T = (key: string, opts?: Record<string, unknown>) => string;

/**
 * The canvas screen's logic (spec 000 §2, §4, §5): what happens on connect, insert, delete, move,
 * run, undo and redo, the live connection, the viewport and presence. React renders it; the screen
 * holds one controller per switchboard id.
 */
export class CanvasController implements Omit<CanvasHandlers, 'onContextMenu' | 'onDropLink'> {
  readonly store: CanvasStore;
  readonly actions: CanvasActions;
  private readonly inserts: CanvasInserts;
  /** The types the link rule asks: the server's (ServerTypes), the browser's until they loaded. */
  private readonly types: ServerTypes;
  rete?: ReteCanvas = undefined;
  dialog?: CanvasDialog = undefined;
  selection: string[] = [];
  contextViewOpen = false;
  previewOpen = false;
  hoverTarget: { frame: string; x: number; y: number } | null = null;
  private live?: LiveConnection;
  private viewportTimer?: ReturnType<typeof setTimeout>;
  private hoverTimer?: ReturnType<typeof setTimeout>;
  private savedViewport?: { x: number; y: number; k: number };
  private restored = false;
  private opened = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly notify: NotificationService,
    private readonly confirmer: ConfirmService,
    browserTypes: TypeRegistry,
    readonly t: T,
    switchboardId: number,
  ) {
    this.types = new ServerTypes(browserTypes);
    this.store = new CanvasStore(api, switchboardId);
    this.actions = new CanvasActions(api, this.store);
    this.inserts = new CanvasInserts({
      api,
      notify,
      store: this.store,
      actions: this.actions,
      t,
      center: () => this.rete?.center(),
      guard: (p) => this.guard(p),
      types: this.types,
    });
    makeAutoObservable<CanvasController, 'api' | 'notify' | 'confirmer' | 'types' | 'live' | 'inserts'>(this, {
      api: false,
      notify: false,
      confirmer: false,
      types: false,
      live: false,
      store: false,
      actions: false,
      inserts: false,
      rete: false,
      t: false,
    });
  }

  /** Loads the server's types for the link rule (the browser may not know every plugin's). */
  loadTypes(): Promise<void> {
    return this.types.load(this.api);
  }

  /** Opens the live connection; every reconnect reloads what may have been missed. */
  connect(factory?: SocketFactory): void {
    this.live = new LiveConnection(
      liveUrl('/ws/status_updates', this.store.switchboardId),
      {
        onMessage: (m) => {
          if (m.type.endsWith('_DELETE') && m.resource_uri && !this.actions.isOwnDelete(m.resource_uri)) {
            this.actions.undo.invalidate(m.resource_uri);
          }
          this.store.apply(m);
        },
        onState: (up) => this.store.setConnected(up),
        onOpen: () => {
          if (this.opened++ > 0) void this.store.load();
          this.sendPresence();
        },
      },
      factory,
    );
  }

  /** Called once the Rete canvas is ready and the store loaded: draws it and restores the viewport once. */
  async attach(rete: ReteCanvas): Promise<void> {
    this.rete = rete;
    const sb = this.store.switchboard;
    // The viewport first, then the objects: the canvas draws what is on screen before the rest.
    if (sb && !this.restored) {
      this.restored = true;
      const saved = { x: sb.ui_offset_x, y: sb.ui_offset_y, k: sb.ui_zoom };
      this.savedViewport = saved;
      if (saved.x === 0 && saved.y === 0 && saved.k === 1 && this.store.nodes.size + this.store.frames.size > 0)
        await rete.fitStored();
      else await rete.restoreViewport(saved.x, saved.y, saved.k);
    }
    await rete.sync();
  }

  // ---- CanvasHandlers (from Rete) ----

  onViewport(t: { x: number; y: number; k: number }): void {
    if (!this.restored) return;
    clearTimeout(this.viewportTimer);
    this.viewportTimer = setTimeout(() => void this.saveViewport(t), VIEWPORT_SAVE_DEBOUNCE_MS);
  }

  private async saveViewport(t: { x: number; y: number; k: number }): Promise<void> {
    const next = {
      x: Math.round(t.x + CANVAS_OFFSET_ORIGIN),
      y: Math.round(t.y + CANVAS_OFFSET_ORIGIN),
      k: Math.round(t.k * 1000) / 1000,
    };
    const last = this.savedViewport;
    if (last && last.x === next.x && last.y === next.y && last.k === next.k) return;
    if (!this.store.writable) return;
    this.savedViewport = next;
    await this.api.patch(this.store.uri, { ui_offset_x: next.x, ui_offset_y: next.y, ui_zoom: next.k }).catch(() => undefined);
  }

  onSelect(uris: string[]): void {
    this.selection = uris;
    this.sendPresence();
  }

  private sendPresence(): void {
    this.live?.send({ type: 'PRESENCE', selected: this.selection[0] ?? null });
  }

  onMoved(moves: Parameters<CanvasActions['move']>[0]): void {
    void this.guard(this.actions.move(moves), () => void this.rete?.sync());
  }

  onDisconnect(linkUri: string): void {
    void this.guard(this.actions.disconnect(linkUri), () => void this.rete?.sync());
  }

  /**
   * A connection drawn on the canvas. It is checked (canLink) before anything changes; once the
   * server made it, the links Rete took off on the way (`replacing`) and the server did not replace
   * go: a link picked off one input and dropped on another moves. A refusal redraws the canvas from
   * the store, where the old links still are (issue 14 item 10).
   */
  onConnect(from: { uri: string; key: string }, to: { uri: string; key: string }, replacing: string[] = []): void {
    const spec = this.linkSpec(from, to);
    if (!spec) {
      void this.rete?.sync();
      return;
    }
    void this.guard(
      (async () => {
        await this.actions.connect(spec);
        const moved = replacing.filter((uri) => this.store.links.has(uri));
        if (moved.length) await this.actions.remove(moved);
      })(),
      () => void this.rete?.sync(),
    );
  }

  /**
   * Creates a frame of the port's type at `at` and links it to the socket a link was drawn from
   * (an input reads it, an output writes it); the frame dialog opens for an input's new frame, to
   * fill it in.
   */
  async createFrameFor(from: SocketRef, at: Point): Promise<void> {
    const node = this.store.nodes.get(from.uri);
    if (!node || kindOf(from.uri) !== 'node') return;
    const input = from.side === 'input';
    const slot = input ? this.rete?.editor.getNode(from.uri)?.slots.find((s) => s.key === from.key) : undefined;
    const port = slot?.port ?? node.ports.find((p) => p.is_input === input && p.name === portNameOfKey(from.key));
    if (!port) return;
    await this.guard(
      (async () => {
        const frame = await this.actions.addFrame(typeName(port.content_type), [], input ? { x: at.x - 240, y: at.y } : at);
        const spec: LinkSpec = { node: node.resource_uri, frame: frame.resource_uri, name: port.name, is_input: input };
        if (input && port.is_list) spec.list_index = slot?.listIndex ?? null;
        if (input && port.is_dict) spec.dict_key = slot?.dictKey || this.nextDictKey(node.resource_uri, port.name);
        await this.actions.connect(spec);
        if (input) this.openDialog({ kind: 'frame', uri: frame.resource_uri });
      })(),
      () => void this.rete?.sync(),
    );
  }

  /** What a drawn connection means, or undefined after telling the user why it cannot be made. */
  linkSpec(from: { uri: string; key: string }, to: { uri: string; key: string }): LinkSpec | undefined {
    const [a, b] = [kindOf(from.uri), kindOf(to.uri)];
    let spec: LinkSpec | undefined;
    let port: Port | undefined;
    let frame: Frame | undefined;
    if (a === 'frame' && b === 'node') {
      const node = this.store.nodes.get(to.uri)!;
      const slot = this.rete?.editor.getNode(to.uri)?.slots.find((s) => s.key === to.key);
      port = slot?.port ?? node.ports.find((p) => p.is_input && p.name === to.key);
      frame = this.store.frames.get(from.uri);
      if (!port || !frame) return undefined;
      spec = { node: to.uri, frame: from.uri, name: port.name, is_input: true };
      if (port.is_list) spec.list_index = slot?.listIndex ?? null;
      if (port.is_dict) spec.dict_key = slot?.dictKey || this.nextDictKey(to.uri, port.name);
    } else if (a === 'node' && b === 'frame') {
      port = this.store.nodes.get(from.uri)?.ports.find((p) => !p.is_input && p.name === from.key);
      frame = this.store.frames.get(to.uri);
      if (!port || !frame) return undefined;
      spec = { node: from.uri, frame: to.uri, name: port.name, is_input: false };
    } else {
      this.notify.notify(this.t('link.through_frame'), 'warning');
      return undefined;
    }
    // spec 000 §5, the one rule the server follows too (common/can-link.ts).
    const verdict = canLink(this.types, frame.content_type, port, spec);
    if (!verdict.ok) {
      this.notify.notify(this.t(`link.refused.${verdict.reason}`, { from: verdict.from, to: verdict.to }), 'warning');
      return undefined;
    }
    return spec;
  }

  private nextDictKey(node: string, port: string): string {
    const draft = this.dictDrafts.get(`${node}|${port}`);
    if (draft) {
      this.dictDrafts.delete(`${node}|${port}`);
      return draft;
    }
    const used = new Set(
      this.store
        .linksOf(node)
        .filter((l) => l.name === port)
        .map((l) => l.dict_key),
    );
    let i = 1;
    while (used.has(`key${i}`)) i++;
    return `key${i}`;
  }

  readonly dictDrafts = new Map<string, string>();

  /** Renames a dict slot's key: the link is made again under the new key. */
  renameDictKey(node: string, port: string, from: string, to: string): void {
    const link = this.store.linksOf(node).find((l) => l.name === port && l.dict_key === from && l.is_input);
    if (!link) return;
    void this.guard(
      (async () => {
        await this.actions.remove([link.resource_uri]);
        await this.actions.connect({ node, frame: link.frame, name: port, is_input: true, dict_key: to });
      })(),
    );
  }

  // ---- Commands ----

  openDialog(d: CanvasDialog | undefined): void {
    this.dialog = d;
  }

  /**
   * Shows the data preview after the pointer rests on a frame or link for HOVER_DELAY_MS (not while
   * a button is held: panning and dragging pass over many of them); hides it at once.
   */
  setHover(target: { frame: string; x: number; y: number; buttons?: number } | null): void {
    clearTimeout(this.hoverTimer);
    if (!target || target.buttons) {
      this.hoverTarget = null;
      return;
    }
    const { frame, x, y } = target;
    this.hoverTimer = setTimeout(() => this.showHover({ frame, x, y }), HOVER_DELAY_MS);
  }

  private showHover(target: { frame: string; x: number; y: number }): void {
    this.hoverTarget = target;
  }

  toggleContextView(): void {
    this.contextViewOpen = !this.contextViewOpen;
  }

  togglePreview(): void {
    this.previewOpen = !this.previewOpen;
  }

  /** spec 000 §2: r runs the switchboard after a confirmation. */
  async confirmRun(): Promise<void> {
    const ok = await this.confirmer.confirm(this.t('run.confirm', { name: this.store.switchboard?.name ?? '' }), {
      confirmLabel: this.t('run.run'),
      intent: 'primary',
    });
    if (ok) await this.run();
  }

  async run(body: { node?: string; from_here?: boolean; force?: boolean } = {}): Promise<void> {
    await this.guard(this.api.post(`${this.store.uri}run/`, body));
  }

  async abort(): Promise<void> {
    await this.guard(this.api.post(`${this.store.uri}abort/`));
  }

  stopNode(uri: string): void {
    void this.guard(this.api.post(`${uri}abort/`));
  }

  async runNode(uri: string, fromHere: boolean): Promise<void> {
    await this.guard(this.api.post(`${uri}run/`, { from_here: fromHere }));
  }

  async deleteSelection(uris = this.selection): Promise<void> {
    if (!uris.length) return;
    await this.guard(this.actions.remove(uris));
    runInAction(() => (this.selection = []));
  }

  async undo(): Promise<void> {
    await this.guard(this.actions.undo.undo(), undefined, 'undo.failed');
  }

  async redo(): Promise<void> {
    await this.guard(this.actions.undo.redo(), undefined, 'redo.failed');
  }

  /** Performs what the insert dialog (or a drop) asked for (CanvasInserts). */
  insert(result: InsertResult, at?: Point): Promise<void> {
    return this.inserts.insert(result, at);
  }

  /** Inserts a function between a link's frame and port (CanvasInserts). */
  intermediate(linkUri: string, func: FunctionInfo): Promise<void> {
    return this.inserts.intermediate(linkUri, func);
  }

  /**
   * Runs an edit and tells the user when the server refuses it (the reason in their language); the
   * canvas is then drawn again from the store, so nothing half-made stays on screen.
   */
  async guard<R>(p: Promise<R>, onFail?: () => void, prefix?: string): Promise<R | undefined> {
    try {
      return await p;
    } catch (e) {
      const message = (e as Error).message;
      this.notify.error(prefix ? `${this.t(prefix)} ${message}` : message);
      onFail?.();
      return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.viewportTimer);
    clearTimeout(this.hoverTimer);
    this.live?.dispose();
    this.rete?.dispose();
  }
}

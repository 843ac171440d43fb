import { BaseSocketPosition, type BaseSchemes } from '@werkbank/sdk/canvas';

/** How far a link's end lies outside its socket's centre (as Rete's classic preset draws it). */
const END_OFFSET = 12;

type Side = 'input' | 'output';
type Position = { x: number; y: number };
interface SocketPayload {
  element: HTMLElement;
  side: Side;
  key: string;
  nodeId: string;
  position: Position;
}
interface ListenerData {
  nodeId: string;
  side?: Side;
  key?: string;
}

const socketKey = (nodeId: string, side: string, key: string) => `${side}\u0000${key}\u0000${nodeId}`;

/**
 * Rete's store of socket positions, indexed: Rete's own searches every socket of the canvas on each
 * lookup (a flat copy and a filter), which with thousands of sockets costs seconds while a big
 * switchboard opens (bench/canvas). Same methods, same answers.
 */
export class IndexedSocketStorage {
  readonly elements = new Map<HTMLElement, SocketPayload[]>();
  private readonly bySocket = new Map<string, SocketPayload[]>();
  private readonly byNode = new Map<string, Set<SocketPayload>>();

  getPosition(data: { nodeId: string; key: string; side: Side }): Position | null {
    const found = this.bySocket.get(socketKey(data.nodeId, data.side, data.key));
    return found?.[found.length - 1]?.position ?? null;
  }

  add(data: SocketPayload): void {
    const existing = this.elements.get(data.element) ?? [];
    for (const old of existing.filter((n) => n.nodeId === data.nodeId && n.key === data.key && n.side === data.side)) {
      this.unindex(old);
    }
    this.elements.set(data.element, [
      ...existing.filter((n) => !(n.nodeId === data.nodeId && n.key === data.key && n.side === data.side)),
      data,
    ]);
    const k = socketKey(data.nodeId, data.side, data.key);
    this.bySocket.set(k, [...(this.bySocket.get(k) ?? []), data]);
    (this.byNode.get(data.nodeId) ?? this.byNode.set(data.nodeId, new Set()).get(data.nodeId)!).add(data);
  }

  remove(element: HTMLElement): void {
    for (const old of this.elements.get(element) ?? []) this.unindex(old);
    this.elements.delete(element);
  }

  snapshot(): SocketPayload[] {
    return [...this.elements.values()].flat();
  }

  /** The sockets of one node. */
  ofNode(nodeId: string): SocketPayload[] {
    return [...(this.byNode.get(nodeId) ?? [])];
  }

  private unindex(old: SocketPayload): void {
    const k = socketKey(old.nodeId, old.side, old.key);
    const rest = (this.bySocket.get(k) ?? []).filter((n) => n !== old);
    if (rest.length) this.bySocket.set(k, rest);
    else this.bySocket.delete(k);
    const own = this.byNode.get(old.nodeId);
    own?.delete(old);
    if (own && !own.size) this.byNode.delete(old.nodeId);
  }
}

/**
 * Rete's emitter of socket changes, by node: Rete's own calls every link's listener for every change
 * of any socket. `listen` takes a handler for every change, as Rete's does.
 */
export class NodeEmitter {
  readonly listeners = new Set<(data: ListenerData) => void>();
  private readonly byNode = new Map<string, Set<(data: ListenerData) => void>>();

  emit(data: ListenerData): void {
    for (const h of [...this.listeners]) h(data);
    for (const h of [...(this.byNode.get(data.nodeId) ?? [])]) h(data);
  }

  listen(handler: (data: ListenerData) => void): () => void {
    this.listeners.add(handler);
    return () => void this.listeners.delete(handler);
  }

  /** A handler for the changes of one node's sockets. */
  on(nodeId: string, handler: (data: ListenerData) => void): () => void {
    const set = this.byNode.get(nodeId) ?? this.byNode.set(nodeId, new Set()).get(nodeId)!;
    set.add(handler);
    return () => {
      set.delete(handler);
      if (!set.size) this.byNode.delete(nodeId);
    };
  }
}

interface Pending {
  element: HTMLElement;
  parent: HTMLElement;
  done(centre: { x: number; y: number } | null): void;
}

/** The centre of `element` relative to `parent`, from offsets (layout units: the canvas zoom does not count). */
function centre(element: HTMLElement, parent: HTMLElement): { x: number; y: number } | null {
  let current = element.offsetParent as HTMLElement | null;
  if (!current) return null;
  let x = element.offsetLeft;
  let y = element.offsetTop;
  while (current && current !== parent) {
    x += current.offsetLeft + current.clientLeft;
    y += current.offsetTop + current.clientTop;
    current = current.offsetParent as HTMLElement | null;
  }
  return { x: x + element.offsetWidth / 2, y: y + element.offsetHeight / 2 };
}

/**
 * Where links end, measured like Rete's DOM socket positions, but in batches (bench/canvas): Rete
 * measures each socket as soon as it is drawn, and each measurement after a change to the page
 * forces a layout of the page — thousands of layouts while a big switchboard opens. Here every
 * socket drawn in the same task is measured together after it, reading only: one layout for all.
 * A socket not laid out yet (no offsetParent) is measured again in the next batch, one that left the
 * page is dropped.
 */
export class BatchedSocketPosition<S extends BaseSchemes, K> extends BaseSocketPosition<S, K> {
  private queue: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly index = new IndexedSocketStorage();
  private readonly nodeEmitter = new NodeEmitter();

  constructor() {
    super();
    // Rete's classes with the same methods, indexed (see above).
    this.sockets = this.index as unknown as BaseSocketPosition<S, K>['sockets'];
    this.emitter = this.nodeEmitter as unknown as BaseSocketPosition<S, K>['emitter'];
  }

  /** As Rete's: `change` hears every new position of this socket, starting with the one known now. */
  override listen(nodeId: string, side: Side, key: string, change: (position: Position) => void): () => void {
    const unlisten = this.nodeEmitter.on(nodeId, (data) => {
      if ((data.key && data.side !== side) || (data.side && data.key !== key)) return;
      const position = this.index.getPosition({ side, nodeId, key });
      const view = this.area?.nodeViews.get(nodeId);
      if (position && view) change({ x: position.x + view.position.x, y: position.y + view.position.y });
    });
    for (const data of this.index.ofNode(nodeId)) this.nodeEmitter.emit(data);
    return unlisten;
  }

  async calculatePosition(nodeId: string, side: 'input' | 'output', _key: string, element: HTMLElement) {
    const view = this.area?.nodeViews.get(nodeId);
    if (!view?.element) return null;
    const parent = view.element;
    const c = await new Promise<{ x: number; y: number } | null>((done) => {
      this.queue.push({ element, parent, done });
      this.timer ??= setTimeout(() => this.flush(), 0);
    });
    return c && { x: c.x + END_OFFSET * (side === 'input' ? -1 : 1), y: c.y };
  }

  private flush(): void {
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    // All reads first (one layout), then the callbacks, which may change the page.
    const centres = batch.map((p) => centre(p.element, p.parent));
    batch.forEach((p, i) => {
      const c = centres[i];
      if (c) p.done(c);
      else if (!p.element.isConnected) p.done(null);
      else this.queue.push(p);
    });
    if (this.queue.length) this.timer ??= setTimeout(() => this.flush(), 0);
  }
}

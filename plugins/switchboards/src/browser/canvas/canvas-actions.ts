import type { ApiClient } from '@werkbank/sdk/browser';
import {
  FRAME_PATH,
  LINK_PATH,
  NODE_PATH,
  NOTE_PATH,
  type Frame,
  type Link,
  type Note,
  type SbNode,
} from '../../common/switchboard-types';
import { kindOf, type CanvasStore } from './canvas-store';
import { UndoStack } from './undo-stack';

export interface Point {
  x: number;
  y: number;
}
export interface Move {
  uri: string;
  from: Point;
  to: Point;
}
/** Where a link attaches: a node's port (and slot) and a frame. */
export interface LinkSpec {
  node: string;
  frame: string;
  name: string;
  is_input: boolean;
  list_index?: number | null;
  dict_key?: string | null;
}
/** The most items a deleted frame keeps for undo (the server takes 10,000 per call). */
const UNDO_CONTENT_LIMIT = 10_000;

type Snapshot = { kind: 'node'; obj: SbNode } | { kind: 'frame'; obj: Frame; items: unknown[] } | { kind: 'note'; obj: Note };

const linkSpec = (l: Link): LinkSpec => ({
  node: l.node,
  frame: l.frame,
  name: l.name,
  is_input: l.is_input,
  list_index: l.list_index,
  dict_key: l.dict_key,
});

/**
 * The canvas edits (spec 000 §2, §4), each sent to the server and recorded for undo. The server
 * replies with the object, which goes into the store at once (the live event that follows finds it
 * there). Every method throws the server's refusal (ApiCallError, in the user's language).
 */
export class CanvasActions {
  readonly undo = new UndoStack();
  /** Addresses this client deleted (or made the server replace): their _DELETE events are ours. */
  private readonly ownDeletes = new Set<string>();

  constructor(
    private readonly api: ApiClient,
    private readonly store: CanvasStore,
  ) {}

  /** Was this deletion caused here (so it must not invalidate the undo history)? */
  isOwnDelete(uri: string): boolean {
    return this.ownDeletes.delete(uri);
  }

  addNode(func: string, at: Point): Promise<SbNode> {
    return this.undo.track(async () => {
      const node = await this.create<SbNode>(NODE_PATH, { func, ui_x: at.x, ui_y: at.y });
      this.recordCreate('insert', { kind: 'node', obj: node });
      return node;
    });
  }

  addFrame(contentType: string, items: unknown[], at: Point, name?: string): Promise<Frame> {
    return this.undo.track(async () => {
      const body = {
        content_type: contentType,
        ui_x: at.x,
        ui_y: at.y,
        ...(name ? { name } : {}),
        ...(items.length ? { content: items } : {}),
      };
      const frame = await this.create<Frame>(FRAME_PATH, body);
      this.recordCreate('insert', { kind: 'frame', obj: frame, items });
      return frame;
    });
  }

  addNote(text: string, at: Point): Promise<Note> {
    return this.undo.track(async () => {
      const note = await this.create<Note>(NOTE_PATH, { text, ui_x: at.x, ui_y: at.y });
      this.recordCreate('insert', { kind: 'note', obj: note });
      return note;
    });
  }

  /** Saves new positions (one undo step for all of them); unchanged ones are not sent. */
  move(moves: Move[]): Promise<void> {
    return this.undo.track(async () => {
      const changed = moves.filter((m) => m.from.x !== m.to.x || m.from.y !== m.to.y);
      if (!changed.length) return;
      const apply = (pick: (m: Move) => Point) =>
        Promise.all(changed.map((m) => this.patch(this.undo.resolve(m.uri), { ui_x: pick(m).x, ui_y: pick(m).y })));
      await apply((m) => m.to);
      this.undo.push({
        label: 'move',
        refs: changed.map((m) => m.uri),
        undo: () => apply((m) => m.from).then(() => undefined),
        redo: () => apply((m) => m.to).then(() => undefined),
      });
    });
  }

  /** Connects a frame and a port; a link in the same slot (or the frame's other writer) is replaced. */
  connect(spec: LinkSpec): Promise<Link> {
    return this.undo.track(async () => {
      const replaced = this.occupying(spec);
      for (const l of replaced) this.ownDeletes.add(l.resource_uri);
      const link = await this.create<Link>(LINK_PATH, spec);
      for (const l of replaced) this.store.remove(l.resource_uri);
      let current = link.resource_uri;
      const first = link.resource_uri;
      const restored = replaced.map((l) => l.resource_uri);
      this.undo.push({
        label: 'link',
        refs: [spec.node, spec.frame, first, ...restored],
        undo: async () => {
          await this.delete(this.undo.resolve(current));
          for (const [i, l] of replaced.entries()) {
            const again = await this.create<Link>(LINK_PATH, this.resolved(linkSpec(l)));
            this.undo.alias(this.undo.resolve(restored[i]), again.resource_uri);
          }
        },
        redo: async () => {
          for (const uri of restored) this.ownDeletes.add(this.undo.resolve(uri));
          const again = await this.create<Link>(LINK_PATH, this.resolved(spec));
          for (const uri of restored) this.store.remove(this.undo.resolve(uri));
          this.undo.alias(this.undo.resolve(current), again.resource_uri);
          current = again.resource_uri;
        },
      });
      return link;
    });
  }

  /** Deletes nodes, frames, notes and links (a node's or frame's links go with it); one undo step. */
  remove(uris: string[]): Promise<void> {
    return this.undo.track(async () => {
      const objects = uris.filter((u) => kindOf(u) !== 'link');
      const snapshots = await Promise.all(objects.map((u) => this.snapshot(u)));
      const links = new Map<string, Link>();
      for (const u of uris) {
        const l = this.store.links.get(u);
        if (l) links.set(u, l);
      }
      for (const u of objects) for (const l of this.store.linksOf(u)) links.set(l.resource_uri, l);
      const drop = async () => {
        const gone = [...objects, ...[...links.keys()].filter((l) => !objects.some((o) => this.touches(links.get(l)!, o)))];
        for (const u of gone) await this.delete(this.undo.resolve(u));
      };
      await drop();
      if (snapshots.some((s) => !s)) return; // a frame too large to keep: not undoable
      this.undo.push({
        label: 'delete',
        refs: [...objects, ...links.keys()],
        undo: async () => {
          for (const s of snapshots as Snapshot[]) await this.recreate(s);
          for (const [uri, l] of links) {
            const again = await this.create<Link>(LINK_PATH, this.resolved(linkSpec(l)));
            this.undo.alias(this.undo.resolve(uri), again.resource_uri);
          }
        },
        redo: drop,
      });
    });
  }

  /**
   * Takes back an object this canvas just created when what it was made for failed (an upload
   * frame whose files all failed): deletes it and forgets its undo steps, as if it never was.
   */
  async discard(uri: string): Promise<void> {
    await this.delete(this.undo.resolve(uri));
    this.undo.invalidate(uri);
  }

  async disconnect(linkUri: string): Promise<void> {
    await this.remove([linkUri]);
  }

  /** Links already in the slot `spec` would take (replaced by the server when it is created). */
  private occupying(spec: LinkSpec): Link[] {
    return [...this.store.links.values()].filter((l) => {
      if (spec.is_input) {
        if (l.node !== spec.node || l.name !== spec.name || !l.is_input) return false;
        if (spec.dict_key != null) return l.dict_key === spec.dict_key;
        if (spec.list_index != null) return l.list_index === spec.list_index;
        return true;
      }
      return !l.is_input && l.frame === spec.frame;
    });
  }

  private touches(l: Link, uri: string): boolean {
    return l.node === uri || l.frame === uri;
  }

  private resolved(spec: LinkSpec): LinkSpec {
    return { ...spec, node: this.undo.resolve(spec.node), frame: this.undo.resolve(spec.frame) };
  }

  private async snapshot(uri: string): Promise<Snapshot | undefined> {
    const kind = kindOf(uri);
    if (kind === 'node') return { kind, obj: { ...this.store.nodes.get(uri)! } };
    if (kind === 'note') return { kind, obj: { ...this.store.notes.get(uri)! } };
    const frame = this.store.frames.get(uri)!;
    if (frame.size > UNDO_CONTENT_LIMIT) return undefined;
    const items: unknown[] = [];
    while (items.length < frame.size) {
      const page = await this.api.get<{ objects: unknown[] }>(`${uri}content/`, { query: { offset: items.length, limit: 1000 } });
      if (!page.objects.length) break;
      items.push(...page.objects);
    }
    return { kind: 'frame', obj: { ...frame }, items };
  }

  private async recreate(s: Snapshot): Promise<void> {
    const at = { ui_x: s.obj.ui_x, ui_y: s.obj.ui_y };
    let made: { resource_uri: string };
    if (s.kind === 'node') {
      made = await this.create<SbNode>(NODE_PATH, { func: s.obj.func, ...at, ui_collapsed: s.obj.ui_collapsed });
      const params = s.obj.ports.filter((p) => p.is_input).map((p) => ({ name: p.name, default_value: p.default_value }));
      if (params.length) this.store.put(await this.api.patch<SbNode>(made.resource_uri, { ports: params }));
    } else if (s.kind === 'frame') {
      const f = s.obj;
      made = await this.create<Frame>(FRAME_PATH, {
        ...at,
        content_type: f.content_type,
        name: f.name,
        description: f.description,
        frame_type: f.frame_type,
        storage_context: f.storage_context,
        content_visible: f.content_visible,
        ...(s.items.length ? { content: s.items } : {}),
      });
    } else {
      made = await this.create<Note>(NOTE_PATH, { text: s.obj.text, ...at });
    }
    this.undo.alias(this.undo.resolve(s.obj.resource_uri), made.resource_uri);
  }

  /** Records an insert: undo deletes it, redo makes it again (at a new address). */
  private recordCreate(label: string, s: Snapshot): void {
    const uri = s.obj.resource_uri;
    this.undo.push({
      label,
      refs: [uri],
      undo: async () => {
        const cur = this.undo.resolve(uri);
        // What it holds now is what redo brings back.
        const now = await this.snapshot(cur);
        if (now) Object.assign(s, now);
        await this.delete(cur);
      },
      redo: () => this.recreate(s),
    });
  }

  /** Creates a canvas object (links name no switchboard: theirs is the node's). */
  private async create<T extends { resource_uri: string }>(path: string, body: object): Promise<T> {
    const obj = await this.api.post<T>(path, path === LINK_PATH ? body : { switchboard: this.store.uri, ...body });
    this.store.put(obj as unknown as SbNode);
    return obj;
  }

  private async patch(uri: string, body: object): Promise<void> {
    const obj = await this.api.patch<SbNode | Frame | Note>(uri, body);
    this.store.put(obj);
  }

  private async delete(uri: string): Promise<void> {
    this.ownDeletes.add(uri);
    for (const l of this.store.linksOf(uri)) this.ownDeletes.add(l.resource_uri);
    await this.api.delete(uri);
    this.store.remove(uri);
  }
}

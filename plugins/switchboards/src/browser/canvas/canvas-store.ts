import { makeAutoObservable, observable, runInAction, type ApiClient } from '@werkbank/sdk/browser';
import type { CanvasContent, Frame, Link, Note, SbNode, Switchboard } from '../../common/switchboard-types';
import type { LiveMessage } from './live-connection';

export type CanvasObject = SbNode | Frame | Note;
export type CanvasKind = 'node' | 'frame' | 'note' | 'link';

/** The kind of a canvas address (`/api/v1/node/3/` → 'node'). */
export function kindOf(uri: string): CanvasKind | 'switchboard' | undefined {
  const m = /^\/api\/v1\/(node|frame|note|link|switchboard)\/\d+\/$/.exec(uri);
  return m?.[1] as CanvasKind | 'switchboard' | undefined;
}

/** Another user on the same switchboard (presence, beyond spec 000). */
export interface Presence {
  client: string;
  user: string;
  name: string;
  selected: string | null;
}

/**
 * Everything on one switchboard's canvas, as the server last told us: loaded whole by `load()`
 * (spec 000 §2: on mount and when the id changes, and again after a reconnect), then kept current
 * by the live events of /ws/status_updates (`apply`). Edits go through CanvasActions; this store
 * only mirrors the server.
 */
export class CanvasStore {
  switchboard?: Switchboard = undefined;
  readonly nodes = new Map<string, SbNode>();
  readonly frames = new Map<string, Frame>();
  readonly links = new Map<string, Link>();
  readonly notes = new Map<string, Note>();
  readonly presence = new Map<string, Presence>();
  loading = false;
  error?: string = undefined;
  /** False while the live connection is down (spec 000 §8 "Connection to backend lost"). */
  connected = true;
  /** Bumped on every change, so views can react to the store as a whole. */
  revision = 0;
  private readonly fetching = new Set<string>();
  /**
   * Addresses deleted while this canvas is open. Ids are never reused, so a late insert event or a
   * fetch that was under way when the object was deleted must not bring it back.
   */
  private readonly gone = new Set<string>();
  /**
   * The links of each node and frame (`linksOf`), kept in step with `links`: a lookup reads one
   * entry, and a view observes only the links of its own object — searching every link for each
   * node made opening a big switchboard grow with the square of its size (bench/canvas).
   */
  private readonly linkEnds = observable.map<string, Link[]>({}, { deep: false });
  /** The ends each link is indexed under in `linkEnds`. */
  private readonly linkIndexed = new Map<string, string[]>();

  constructor(
    private readonly api: ApiClient,
    readonly switchboardId: number,
  ) {
    makeAutoObservable<CanvasStore, 'api' | 'fetching' | 'gone' | 'linkEnds' | 'linkIndexed'>(this, {
      api: false,
      fetching: false,
      gone: false,
      linkEnds: false,
      linkIndexed: false,
      switchboardId: false,
    });
  }

  get uri(): string {
    return `/api/v1/switchboard/${this.switchboardId}/`;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const content = await this.api.get<CanvasContent>(`${this.uri}reload/`);
      runInAction(() => this.replace(content));
    } catch (e) {
      runInAction(() => {
        this.error = (e as Error).message;
        this.loading = false;
      });
    }
  }

  replace(content: CanvasContent): void {
    this.switchboard = content.switchboard;
    this.nodes.clear();
    this.frames.clear();
    this.links.clear();
    this.linkEnds.clear();
    this.linkIndexed.clear();
    this.notes.clear();
    for (const n of content.nodes) this.nodes.set(n.resource_uri, n);
    for (const f of content.frames) this.frames.set(f.resource_uri, f);
    for (const l of content.links) this.setLink(l);
    for (const n of content.notes) this.notes.set(n.resource_uri, n);
    this.loading = false;
    this.error = undefined;
    this.revision++;
  }

  get writable(): boolean {
    return !!this.switchboard?.access?.includes('write');
  }

  get executable(): boolean {
    return !!this.switchboard?.access?.includes('execute');
  }

  object(uri: string): CanvasObject | Link | undefined {
    return this.nodes.get(uri) ?? this.frames.get(uri) ?? this.notes.get(uri) ?? this.links.get(uri);
  }

  /** Puts an object the server returned (after a create or an update) into the store. */
  put(obj: SbNode | Frame | Note | Link): void {
    const kind = kindOf(obj.resource_uri);
    if (kind === 'node') this.nodes.set(obj.resource_uri, obj as SbNode);
    else if (kind === 'frame') this.frames.set(obj.resource_uri, obj as Frame);
    else if (kind === 'note') this.notes.set(obj.resource_uri, obj as Note);
    else if (kind === 'link') this.setLink(obj as Link);
    this.revision++;
  }

  /** Stores a link and indexes it under its node and frame (a stored one keeps its place). */
  private setLink(link: Link): void {
    const uri = link.resource_uri;
    this.links.set(uri, link);
    this.reindexLink(uri);
  }

  /** Brings `linkEnds` in line with the stored link `uri` (gone, new, changed or moved to other ends). */
  private reindexLink(uri: string): void {
    const link = this.links.get(uri);
    const ends = link ? [...new Set([link.node, link.frame])] : [];
    const old = this.linkIndexed.get(uri) ?? [];
    for (const end of old) {
      const list = this.linkEnds.get(end) ?? [];
      const at = list.findIndex((l) => l.resource_uri === uri);
      if (at < 0) continue;
      if (link && ends.includes(end)) {
        // Same end: the new object takes the old one's place.
        if (list[at] !== link)
          this.linkEnds.set(
            end,
            list.map((l, i) => (i === at ? link : l)),
          );
      } else if (list.length === 1) this.linkEnds.delete(end);
      else
        this.linkEnds.set(
          end,
          list.filter((_, i) => i !== at),
        );
    }
    for (const end of ends) if (!old.includes(end)) this.linkEnds.set(end, [...(this.linkEnds.get(end) ?? []), link!]);
    if (link) this.linkIndexed.set(uri, ends);
    else this.linkIndexed.delete(uri);
  }

  remove(uri: string): void {
    this.gone.add(uri);
    const gone = this.nodes.delete(uri) || this.frames.delete(uri) || this.notes.delete(uri) || this.links.delete(uri);
    if (kindOf(uri) === 'link') this.reindexLink(uri);
    // A removed node or frame takes its links with it (the server deletes them in the same transaction).
    if (kindOf(uri) === 'node' || kindOf(uri) === 'frame') {
      for (const l of this.linksOf(uri)) {
        this.links.delete(l.resource_uri);
        this.reindexLink(l.resource_uri);
      }
    }
    if (gone) this.revision++;
  }

  /** The links of a node or frame. */
  linksOf(uri: string): Link[] {
    return [...(this.linkEnds.get(uri) ?? [])];
  }

  /** Applies one live event (spec 000 §7). Inserts fetch the new object unless we have it already. */
  apply(m: LiveMessage): void {
    const uri = m.resource_uri;
    if (m.type === 'PRESENCE') {
      const p = m as unknown as Presence;
      this.presence.set(p.client, { client: p.client, user: p.user, name: p.name, selected: p.selected });
      return;
    }
    if (m.type === 'PRESENCE_LEAVE') {
      this.presence.delete(String(m.client));
      return;
    }
    if (!uri) return;
    if (m.type.endsWith('_DELETE')) this.remove(uri);
    else if (m.type.endsWith('_INSERT')) {
      if (!this.object(uri)) void this.fetch(uri);
    } else if (m.type === 'UPDATE') this.update(uri, m.fields ?? {});
  }

  private update(uri: string, fields: Record<string, unknown>): void {
    if (uri === this.uri && this.switchboard) {
      Object.assign(this.switchboard, fields);
      this.revision++;
      return;
    }
    const obj = this.object(uri);
    if (!obj) {
      if (kindOf(uri)) void this.fetch(uri);
      return;
    }
    Object.assign(obj, fields);
    // A link's ends could change with it: keep linksOf in step.
    if (kindOf(uri) === 'link') this.reindexLink(uri);
    this.revision++;
    // A live event carries a failure in the language of who ran the node: the reply is in the reader's.
    if (kindOf(uri) === 'node' && fields.status === 'failure') void this.fetch(uri);
  }

  /** Loads one object the live channel announced; a 404 means it is already gone again. */
  async fetch(uri: string): Promise<void> {
    if (this.fetching.has(uri) || this.gone.has(uri)) return;
    this.fetching.add(uri);
    try {
      const obj = await this.api.get<SbNode | Frame | Note | Link>(uri);
      runInAction(() => {
        if (!this.gone.has(uri)) this.put(obj);
      });
    } catch {
      // Deleted meanwhile: its _DELETE event follows or came already.
    } finally {
      this.fetching.delete(uri);
    }
  }

  setConnected(up: boolean): void {
    this.connected = up;
    if (!up) this.presence.clear();
  }
}

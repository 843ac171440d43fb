import { ANY_TYPE, readCookie, type ApiClient, type NotificationService } from '@werkbank/sdk/browser';
import { canLink, type LinkPort, type TypeLookup } from '../../common/can-link';
import { typeName, type FunctionInfo, type SbNode } from '../../common/switchboard-types';
import type { InsertResult } from '../dialogs/insert-result';
import type { CanvasActions, Point } from './canvas-actions';
import type { CanvasStore } from './canvas-store';

/** What inserting needs of the canvas. */
export interface InsertHost {
  api: ApiClient;
  notify: NotificationService;
  store: CanvasStore;
  actions: CanvasActions;
  t: (key: string, opts?: Record<string, unknown>) => string;
  /** The middle of what is visible, in canvas coordinates (undefined before the canvas is drawn). */
  center(): Point | undefined;
  guard<R>(p: Promise<R>): Promise<R | undefined>;
  /** The type registry the link rule asks (canLink). */
  types: TypeLookup;
}

/**
 * Inserting on the canvas (spec 000 §2): what the insert dialog or a drop asked for, uploads into a
 * new file frame, and an intermediate function between a frame and a port.
 */
export class CanvasInserts {
  constructor(private readonly host: InsertHost) {}

  /** Performs what the insert dialog (or a drop) asked for, at `at` or the middle of the view. */
  async insert(result: InsertResult, at?: Point): Promise<void> {
    const p = at ?? this.freePoint(this.host.center() ?? { x: 0, y: 0 });
    switch (result.kind) {
      case 'function':
        await this.host.guard(this.host.actions.addNode(result.func.name, p));
        return;
      case 'frame':
        await this.host.guard(this.host.actions.addFrame(result.contentType, result.items, p, result.name));
        return;
      case 'note':
        await this.host.guard(this.host.actions.addNote(result.text, p));
        return;
      case 'url':
        await this.host.guard(
          (async () => {
            const node = await this.host.actions.addNode(result.func, p);
            const ports = Object.entries(result.params).map(([name, default_value]) => ({ name, default_value }));
            if (ports.length) this.host.store.put(await this.host.api.patch<SbNode>(node.resource_uri, { ports }));
          })(),
        );
        return;
      case 'upload':
        await this.host.guard(this.upload(result.files, p));
        return;
      default:
        // spec 000 §8: an unhandled insert result is only a warning.
        console.warn('Unhandled insert result', result);
        this.host.notify.notify(this.host.t('insert.unhandled'), 'warning');
    }
  }

  /**
   * `p`, or right of it where nothing stands yet: keyboard inserts do not pile up in one spot, and
   * follow one another from left to right as data flows.
   */
  private freePoint(p: Point): Point {
    const taken = [...this.host.store.nodes.values(), ...this.host.store.frames.values(), ...this.host.store.notes.values()];
    const near = (q: Point) => taken.some((o) => Math.abs(o.ui_x - q.x) < 280 && Math.abs(o.ui_y - q.y) < 160);
    const q = { ...p };
    for (let i = 0; i < 50 && near(q); i++) q.x += 300;
    return q;
  }

  /**
   * Files dropped or chosen: a new file frame, each file uploaded into it (docs/api.md "frame").
   * Each failed file is reported with the server's reason; when none arrived, the frame goes again
   * (no empty file frame stays behind, issue 14 item 1).
   */
  private async upload(files: File[], at: Point): Promise<void> {
    const frame = await this.host.actions.addFrame('file', [], at);
    let stored = 0;
    for (const file of files) {
      const reason = await this.uploadOne(frame.resource_uri, file);
      if (reason === undefined) stored++;
      else this.host.notify.error(this.host.t('insert.upload_failed', { file: file.name, reason }));
    }
    if (stored) await this.host.store.fetch(frame.resource_uri);
    else await this.host.actions.discard(frame.resource_uri);
  }

  /** Uploads one file into the frame; undefined when it was stored, else why not (in the user's language). */
  private async uploadOne(frameUri: string, file: File): Promise<string | undefined> {
    const form = new FormData();
    form.append('path', file.name);
    form.append('file', file, file.name);
    let res: Response;
    try {
      res = await fetch(`${frameUri}upload/`, {
        method: 'POST',
        body: form,
        credentials: 'same-origin',
        headers: { 'X-CSRFToken': readCookie('csrftoken') ?? '' },
      });
    } catch {
      return this.host.t('insert.upload_no_connection');
    }
    if (res.ok) return undefined;
    const body = (await res.json().catch(() => undefined)) as { reason?: unknown } | undefined;
    return typeof body?.reason === 'string' && body.reason
      ? body.reason
      : this.host.t('insert.upload_status', { status: res.status });
  }

  /**
   * Inserts `func` between a link's frame and port (spec 000 §2 "Intermediate function"): the
   * function reads the link's frame and writes a new frame that the port then reads (for an output
   * link: the node writes a new frame that the function reads, and the function writes the old frame).
   */
  async intermediate(linkUri: string, func: FunctionInfo): Promise<void> {
    const link = this.host.store.links.get(linkUri);
    const frame = link && this.host.store.frames.get(link.frame);
    const node = link && this.host.store.nodes.get(link.node);
    if (!link || !frame || !node) return;
    const port = node.ports.find((p) => p.name === link.name && p.is_input === link.is_input)!;
    const fits = (frameType: string, p: LinkPort) => canLink(this.host.types, frameType, p).ok;
    // A generic output yields what its input held: the frame it writes takes that type.
    const written = (out: LinkPort, held: string) =>
      typeName(out.content_type) === ANY_TYPE ? held : typeName(out.content_type);
    const frameType = typeName(frame.content_type);
    // An input link: frame → function → new frame → port. An output link: port → new frame → function → frame.
    const freshType = link.is_input ? undefined : written(port, frameType);
    const input = func.inputs.find((p) => fits(link.is_input ? frameType : freshType!, { ...p, is_input: true }));
    const output = func.outputs.find((p) =>
      link.is_input
        ? fits(written(p, frameType), { ...port, is_list: false, is_dict: false })
        : fits(frameType, { ...p, is_input: false }),
    );
    if (!input || !output) {
      this.host.notify.notify(this.host.t('link.no_fit', { name: func.verbose_name }), 'warning');
      return;
    }
    const srcType = freshType ?? written(output, frameType);
    await this.host.guard(
      (async () => {
        const mid = { x: Math.round((frame.ui_x + node.ui_x) / 2), y: Math.round((frame.ui_y + node.ui_y) / 2) + 40 };
        const fn = await this.host.actions.addNode(func.name, mid);
        const fresh = await this.host.actions.addFrame(srcType, [], {
          x: mid.x + 260,
          y: mid.y,
        });
        if (link.is_input) {
          await this.host.actions.connect({ node: fn.resource_uri, frame: frame.resource_uri, name: input.name, is_input: true });
          await this.host.actions.connect({
            node: fn.resource_uri,
            frame: fresh.resource_uri,
            name: output.name,
            is_input: false,
          });
          await this.host.actions.connect({
            node: node.resource_uri,
            frame: fresh.resource_uri,
            name: link.name,
            is_input: true,
            list_index: link.list_index,
            dict_key: link.dict_key,
          });
        } else {
          await this.host.actions.connect({
            node: node.resource_uri,
            frame: fresh.resource_uri,
            name: link.name,
            is_input: false,
          });
          await this.host.actions.connect({ node: fn.resource_uri, frame: fresh.resource_uri, name: input.name, is_input: true });
          await this.host.actions.connect({
            node: fn.resource_uri,
            frame: frame.resource_uri,
            name: output.name,
            is_input: false,
          });
        }
      })(),
    );
  }
}

import type { Link } from '../../common/switchboard-types';

/**
 * A small in-memory stand-in for the canvas API (not one of our components: the shape of the
 * server's replies), enough to follow what the actions send and what undo restores. Tests only.
 */
export class FakeCanvasApi {
  next = 10;
  objects = new Map<string, Record<string, unknown>>();
  content = new Map<string, unknown[]>();
  calls: string[] = [];
  /** While set, a PATCH waits for it (a server that answers slowly). */
  hold: Promise<void> | undefined;

  private make(kind: string, body: Record<string, unknown>) {
    const id = this.next++;
    const uri = `/api/v1/${kind}/${id}/`;
    const obj: Record<string, unknown> = { id, resource_uri: uri, ui_x: 0, ui_y: 0, ...body };
    if (kind === 'node')
      Object.assign(obj, {
        ports: [{ name: 'value', is_input: true, content_type: 'string', default_value: null }],
        status: 'initialized',
        runinfo: {},
      });
    if (kind === 'frame') {
      this.content.set(uri, (body.content as unknown[]) ?? []);
      Object.assign(obj, { size: this.content.get(uri)!.length });
      delete obj.content;
    }
    if (kind === 'link') {
      // A link into a taken slot replaces the old one (docs/api.md "link").
      for (const [u, o] of this.objects)
        if (o.node === body.node && o.name === body.name && o.is_input && body.is_input) this.objects.delete(u);
    }
    this.objects.set(uri, obj);
    return obj;
  }

  async post(path: string, body: Record<string, unknown>) {
    this.calls.push(`POST ${path}`);
    return this.make(path.split('/')[3], body);
  }
  async patch(path: string, body: Record<string, unknown>) {
    this.calls.push(`PATCH ${path}`);
    if (this.hold) await this.hold;
    const o = this.objects.get(path);
    if (!o) throw Object.assign(new Error('not found'), { status: 404 });
    Object.assign(o, body);
    return o;
  }
  async delete(path: string) {
    this.calls.push(`DELETE ${path}`);
    if (!this.objects.delete(path)) throw Object.assign(new Error('not found'), { status: 404 });
    for (const [u, o] of this.objects) if (o.node === path || o.frame === path) this.objects.delete(u);
  }
  async get(path: string) {
    const m = /^(.*\/)content\/$/.exec(path);
    if (m) return { objects: this.content.get(m[1]) ?? [] };
    return this.objects.get(path);
  }
  links() {
    return [...this.objects.values()].filter((o) => String(o.resource_uri).includes('/link/')) as unknown as Link[];
  }
}

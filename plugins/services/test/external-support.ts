import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { pixels } from './wms-support';

/** The remote WMS peer of the external-map suites (MapServer's mapserv as a CGI program) and its helpers. */

/** What the remote's address holds that no answer of Werkbank may show. */
export const USER = 'kartenkonto';
export const PASSWORD = 'Pa55wort';
export const TOKEN = 'S3CRET-token';

/** One request the remote WMS saw. */
export interface Seen {
  path: string;
  query: URLSearchParams;
  authorization?: string;
}

/**
 * A remote WMS: MapServer 8's `mapserv` run as a CGI program behind a small HTTP server, one
 * mapfile per path (`/ows/polygon`, `/ows/point`), guarded by Basic authorization and a token in
 * the query as paid services are; `/broken` answers 500. It counts every request it is asked.
 */
export class RemoteWms {
  readonly seen: Seen[] = [];
  private server?: Server;
  base = '';

  constructor(readonly maps: Record<string, string>) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      void this.answer(req).then(
        ({ status, type, body }) => {
          res.writeHead(status, { 'Content-Type': type });
          res.end(body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
    return this.base;
  }

  /** The number of requests to `path` so far (not counting the test's own, marked `direct`). */
  count(path: string): number {
    return this.seen.filter((s) => s.path === path && !s.query.has('direct')).length;
  }

  private async answer(req: IncomingMessage): Promise<{ status: number; type: string; body: Buffer | string }> {
    const url = new URL(req.url ?? '/', this.base);
    this.seen.push({ path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    if (url.pathname === '/broken') return { status: 500, type: 'text/plain', body: `failure at ${this.base}/broken` };
    const tile = /^\/tiles\/(\w+)\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url.pathname);
    if (tile && this.maps[tile[1]] && url.searchParams.get('token') === TOKEN)
      return cgi(this.maps[tile[1]], mercatorGetMap(Number(tile[2]), Number(tile[3]), Number(tile[4])));
    const map = /^\/ows\/(\w+)$/.exec(url.pathname)?.[1];
    if (!map || !this.maps[map]) return { status: 404, type: 'text/plain', body: 'no such map' };
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    if (req.headers.authorization !== basic || url.searchParams.get('token') !== TOKEN)
      return { status: 401, type: 'text/plain', body: 'credentials needed' };
    return cgi(this.maps[map], url.search.slice(1));
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.close();
    await once(this.server, 'close');
  }
}

/** MapServer as a CGI program: its headers and body for a query string (async, so this process keeps serving). */
export async function cgi(mapPath: string, query: string): Promise<{ status: number; type: string; body: Buffer }> {
  const child = spawn('mapserv', [], {
    env: { ...process.env, MAPSERVER_CONFIG_FILE: `${mapPath}.conf`, REQUEST_METHOD: 'GET', QUERY_STRING: query },
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.resume();
  await once(child, 'close');
  const out = Buffer.concat(chunks);
  const end = out.indexOf('\r\n\r\n');
  const head = out.subarray(0, end).toString('latin1');
  const type = /^content-type:\s*(.+)$/im.exec(head)?.[1].trim() ?? 'application/octet-stream';
  const status = Number(/^status:\s*(\d+)/im.exec(head)?.[1] ?? 200);
  return { status, type, body: out.subarray(end + 4) };
}

/** The box of WebMercatorQuad tile z/y/x in EPSG:3857. */
function mercatorBox(z: number, y: number, x: number): string {
  const half = 20037508.3427892;
  const span = (2 * half) / 2 ** z;
  return [-half + x * span, half - (y + 1) * span, -half + (x + 1) * span, half - y * span].join(',');
}

/** MapServer's GetMap of a WebMercatorQuad tile (how the remote serves its RESTful WMTS tiles). */
export const mercatorGetMap = (z: number, y: number, x: number) =>
  `SERVICE=WMS&VERSION=1.3.0&REQUEST=GetMap&LAYERS=data&STYLES=&CRS=EPSG:3857&BBOX=${mercatorBox(z, y, x)}&WIDTH=256&HEIGHT=256&FORMAT=image/png&TRANSPARENT=TRUE`;

/** Two RGBA images have the same pixels. */
export async function samePixels(a: Buffer, b: Buffer): Promise<boolean> {
  const pa = await pixels(a);
  const pb = await pixels(b);
  return pa.width === pb.width && pa.height === pb.height && Buffer.compare(Buffer.from(pa.data), Buffer.from(pb.data)) === 0;
}

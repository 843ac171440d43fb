import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PNG of `size`×`size` px in one RGBA colour, written by GDAL (`gdal_create -of PNG`), the tool
 * the test prerequisites install anyway.
 */
export function solidPng(rgba: [number, number, number, number], size = 256): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'werkbank-png-'));
  try {
    const file = join(dir, 'tile.png');
    const burn = rgba.flatMap((v) => ['-burn', String(v)]);
    execFileSync('gdal_create', [
      '-q',
      '-of',
      'PNG',
      '-ot',
      'Byte',
      '-outsize',
      String(size),
      String(size),
      '-bands',
      '4',
      ...burn,
      file,
    ]);
    return readFileSync(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One request the fixture received: its path and its query parameters by upper-cased name. */
export interface MapServiceRequest {
  path: string;
  params: Record<string, string>;
}

/**
 * A tiny map service on 127.0.0.1 for tests: GET /wms answers GetMap with `png` (and a service
 * exception as XML for anything else), GET /wmts/... answers every tile with `png`, GET /page
 * answers HTML. Every request is recorded; `onRequest` tells the test when one arrives.
 */
export class MapServiceFixture {
  readonly requests: MapServiceRequest[] = [];
  private server?: Server;
  private waiters: Array<{ test: (r: MapServiceRequest) => boolean; resolve: (r: MapServiceRequest) => void }> = [];

  constructor(private readonly png: Buffer = solidPng([200, 30, 30, 160])) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const params: Record<string, string> = {};
      url.searchParams.forEach((v, k) => (params[k.toUpperCase()] = v));
      const record = { path: url.pathname, params };
      this.requests.push(record);
      this.waiters = this.waiters.filter((w) => (w.test(record) ? (w.resolve(record), false) : true));
      if (url.pathname === '/wms' && params.REQUEST === 'GetMap') {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(this.png);
      } else if (url.pathname.startsWith('/wmts')) {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(this.png);
      } else if (url.pathname === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>secret</body></html>');
      } else {
        res
          .writeHead(200, { 'Content-Type': 'application/vnd.ogc.se_xml' })
          .end('<ServiceExceptionReport><ServiceException>unknown request</ServiceException></ServiceExceptionReport>');
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The first recorded or future request that passes `test`. */
  next(test: (r: MapServiceRequest) => boolean): Promise<MapServiceRequest> {
    const seen = this.requests.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  async close(): Promise<void> {
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }
}

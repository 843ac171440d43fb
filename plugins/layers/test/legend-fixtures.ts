import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, Reply } from '@werkbank/testing/node';

/**
 * A PNG written by GDAL's PNG driver (Debian's python3-gdal, a test prerequisite): `bands` 4 is
 * RGBA (transparent background), 3 is RGB (opaque), each band filled with one value.
 */
export function gdalPng(width: number, height: number, bands: 3 | 4): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'legend-'));
  try {
    const out = join(dir, 'legend.png');
    const script = [
      'import sys',
      'from osgeo import gdal',
      'w, h, n, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]',
      "ds = gdal.GetDriverByName('MEM').Create('', w, h, n, gdal.GDT_Byte)",
      'for b in range(1, n + 1): ds.GetRasterBand(b).Fill(0 if b == 4 else 40 * b)',
      "gdal.GetDriverByName('PNG').CreateCopy(out, ds)",
    ].join('\n');
    execFileSync('/usr/bin/python3', ['-c', script, String(width), String(height), String(bands), out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** `POST {layer}legend/` as the Settings tab sends it: one `file` part (`lang`: the browser's language). */
export async function uploadLegend(c: Client, layer: string, bytes: Buffer, lang = 'en'): Promise<Reply> {
  if (!c.csrfToken) await c.get('/api/v2/backend/config');
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'legend.png');
  const res = await fetch(`${c.baseUrl}${layer}legend/`, {
    method: 'POST',
    body: form,
    headers: { cookie: cookieOf(c), 'x-csrftoken': c.csrfToken ?? '', 'accept-language': lang },
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers };
}

/** GET on an address with the client's cookies (none for a signed-out client), as bytes. */
export async function bytesAt(c: Client, url: string): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(`${c.baseUrl}${url}`, { headers: { cookie: cookieOf(c) } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

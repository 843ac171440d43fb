import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ApiError, type FunctionDescriptor } from '@werkbank/sdk/node';
import { GuardedFetcher } from '@werkbank/testing/node';
import { ServicesFunctions } from './services-functions';
import { GeodataServices } from '../geodata-services';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** The folder of the service fixtures (capabilities, GetFeature answers, feeds; see its README). */
export const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures/services');

/** A fixture's text with `{{BASE}}` replaced by the test server's address. */
export function fixture(name: string, base = ''): string {
  return readFileSync(path.join(FIXTURES, name), 'utf8').split('{{BASE}}').join(base);
}

/** A loopback test service: its address, the requests it received (path and query) and close(). */
export interface TestService {
  base: string;
  requests: string[];
  close(): Promise<void>;
}

/** What a route answers: status, content type and body; undefined for 404. */
export type Answer = { status?: number; type?: string; body: string } | undefined;

/**
 * Starts a node:http server on 127.0.0.1 (a free port) that records each request and answers
 * through `route(url, base)`; for the service specs, started in before() and closed in after().
 */
export async function startService(route: (url: URL, base: string) => Answer): Promise<TestService> {
  const requests: string[] = [];
  let base = '';
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${url.pathname}${url.search}`);
    const answer = route(url, base);
    if (!answer) res.writeHead(404).end();
    else res.writeHead(answer.status ?? 200, { 'content-type': answer.type ?? 'text/xml; charset=utf-8' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A query parameter in any letter case ('' when missing), as OGC services read KVP. */
export function param(url: URL, name: string): string {
  for (const [k, v] of url.searchParams) if (k.toLowerCase() === name.toLowerCase()) return v;
  return '';
}

/** A FileAccess over in-memory texts keyed by the file datum's value; others refused like the server does. */
export function fakeFiles(files: Record<string, string>): FileAccess {
  return {
    open: async (_user, file) => {
      const text = files[String(file.value)];
      if (text === undefined) throw ApiError.notFound();
      return {
        stream: Readable.from([Buffer.from(text)]),
        size: text.length,
        mime_type: 'application/gml+xml',
        name: String(file.value),
      };
    },
  };
}

/** The service functions with a guarded fetcher that may reach loopback (as FETCH_ALLOWED_HOSTS=127.0.0.1 allows). */
export function serviceFunction(id: string, files: FileAccess = fakeFiles({}), maxBytes = 1e8): FunctionDescriptor {
  const net = new GuardedFetcher({ allowPrivate: false, allowedHosts: ['127.0.0.1'], maxBytes });
  const functions = Object.assign(new ServicesFunctions(), { services: { net } as unknown as GeodataServices, files });
  const fn = functions.functions().find((f) => f.id === id);
  if (!fn) throw new Error(`no function ${id}`);
  return fn;
}

/** Items of a one-value input. */
export const one = (value: unknown) => [{ value }];

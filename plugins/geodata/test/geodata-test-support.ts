import assert from 'node:assert/strict';
import type { TestServer } from '@werkbank/testing/node';

/**
 * The few steps the geodata suites need to build and run a switchboard through the HTTP API
 * (a minimal copy of test/api/switchboard-support.ts, so this plugin's suites stand alone).
 */
export type Client = ReturnType<TestServer['client']>;
export interface Reply {
  status: number;
  body: any;
}
export interface Obj {
  id: number;
  resource_uri: string;
  [key: string]: any;
}

/** Everything the geodata suites load. */
export const GEODATA_PLUGINS = ['types', 'tags', 'events', 'magazine', 'basic-functions', 'switchboards', 'geodata'];

export function expectStatus<T = any>(res: Reply, status: number): T {
  assert.equal(res.status, status, `expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

let seq = 0;
export const newSwitchboard = async (c: Client): Promise<Obj> =>
  expectStatus<Obj>(await c.post('/api/v1/switchboard/', { name: `geodata switchboard ${++seq}` }), 201);

export const addNode = async (c: Client, sb: Obj, func: string, params: Record<string, unknown> = {}): Promise<Obj> =>
  expectStatus<Obj>(
    await c.post('/api/v1/node/', {
      switchboard: sb.resource_uri,
      func,
      ports: Object.entries(params).map(([name, value]) => ({ name, default_value: { value } })),
    }),
    201,
  );

export const addFrame = async (c: Client, sb: Obj, type: string, content?: unknown[]): Promise<Obj> =>
  expectStatus<Obj>(
    await c.post('/api/v1/frame/', { switchboard: sb.resource_uri, content_type: type, ...(content ? { content } : {}) }),
    201,
  );

export const link = async (c: Client, node: Obj, name: string, frame: Obj, isInput: boolean): Promise<Obj> =>
  expectStatus<Obj>(
    await c.post('/api/v1/link/', { node: node.resource_uri, frame: frame.resource_uri, name, is_input: isInput }),
    201,
  );

/** The items of a frame (first 1000). */
export const contentOf = async (c: Client, frame: Obj): Promise<any[]> =>
  expectStatus<{ objects: any[] }>(await c.get(`/api/v1/frame/${frame.id}/content/?limit=1000`), 200).objects;

export const get = async (c: Client, uri: string): Promise<Obj> => expectStatus<Obj>(await c.get(uri), 200);

const LIVE_CHANNEL = 'werkbank_switchboard';

/** Starts a run of the switchboard; the execution (202). */
export const startRun = async (c: Client, sb: Obj): Promise<Obj> =>
  expectStatus<Obj>(await c.post(`${sb.resource_uri}run/`), 202);

/** Resolves when the execution has ended (live events of its switchboard). */
export async function waitForExecution(t: TestServer, c: Client, execution: Obj): Promise<Obj> {
  for (;;) {
    let done!: () => void;
    const changed = new Promise<void>((res) => (done = res));
    const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
      if (msg.resource_uri === execution.switchboard) done();
    });
    try {
      const now = await get(c, execution.resource_uri);
      if (now.status !== 'started') return now;
      await changed;
    } finally {
      sub.dispose();
    }
  }
}

/** Runs the switchboard and waits for the end; returns the execution. */
export async function runAndWait(t: TestServer, c: Client, sb: Obj): Promise<Obj> {
  return waitForExecution(t, c, await startRun(c, sb));
}

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Uploads a file into a file frame as the frame dialog does (`POST {frame}upload/`). */
export async function frameUpload(c: Client, frame: Obj, name: string, bytes: Buffer): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${c.baseUrl}/api/v1/frame/${frame.id}/upload/`, {
    method: 'POST',
    body: form,
    headers: { cookie: cookieOf(c), 'x-csrftoken': c.csrfToken ?? '' },
  });
  assert.equal(res.status, 201, await res.text());
}

/** The bytes at an address, with the client's cookies. */
export async function bytesOf(c: Client, url: string): Promise<Buffer> {
  const res = await fetch(`${c.baseUrl}${url}`, { headers: { cookie: cookieOf(c) } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

/** The exception text of a failed node. */
export const exceptionOf = async (c: Client, node: Obj): Promise<string> =>
  String((await get(c, node.resource_uri)).runinfo?.exception);

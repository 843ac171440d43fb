import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, expectStatus, userUri, type Client, type Reply } from '@werkbank/testing/node';

export const SWITCHBOARDS = '/api/v1/switchboard/';
export const NODES = '/api/v1/node/';
export const FRAMES = '/api/v1/frame/';
export const LINKS = '/api/v1/link/';
export const NOTES = '/api/v1/note/';
export const FUNCTIONS = '/api/v1/function/';
export const WORKFLOWS = '/api/v1/workflow/';
export const SB_FOLDERS = '/api/v1/switchboardfolder/';

/** Everything the switchboard suites load. */
export const SWITCHBOARD_PLUGINS = ['types', 'tags', 'events', 'magazine', 'basic-functions', 'switchboards'];

export interface Obj {
  id: number;
  resource_uri: string;
  [key: string]: any;
}

export type User = { id: number; client: Client };
export type Grant = 'read' | 'write' | 'execute';

let seq = 0;

export async function newSwitchboard(c: Client, fields: Record<string, unknown> = {}): Promise<Obj> {
  return expectStatus<Obj>(await c.post(SWITCHBOARDS, { name: `switchboard ${++seq}`, ...fields }), 201);
}

export async function addNode(
  c: Client,
  sb: Obj,
  func: string,
  ports?: Array<{ name: string; default_value: unknown }>,
): Promise<Obj> {
  return expectStatus<Obj>(await c.post(NODES, { switchboard: sb.resource_uri, func, ...(ports ? { ports } : {}) }), 201);
}

export async function addFrame(
  c: Client,
  sb: Obj,
  type: string,
  content?: unknown[],
  fields: Record<string, unknown> = {},
): Promise<Obj> {
  return expectStatus<Obj>(
    await c.post(FRAMES, { switchboard: sb.resource_uri, content_type: type, ...(content ? { content } : {}), ...fields }),
    201,
  );
}

export async function link(
  c: Client,
  node: Obj,
  name: string,
  frame: Obj,
  isInput: boolean,
  extra: Record<string, unknown> = {},
): Promise<Obj> {
  return expectStatus<Obj>(
    await c.post(LINKS, { node: node.resource_uri, frame: frame.resource_uri, name, is_input: isInput, ...extra }),
    201,
  );
}

/** The items of a frame (first 1000). */
export async function contentOf(c: Client, frame: Obj): Promise<unknown[]> {
  return expectStatus<{ objects: unknown[] }>(await c.get(`${FRAMES}${frame.id}/content/?limit=1000`), 200).objects;
}

const LIVE_CHANNEL = 'werkbank_switchboard';

/**
 * Resolves when the switchboard reaches one of `statuses` (its live UPDATE event, or already there):
 * subscribes before it looks, so no change is missed.
 */
export async function waitForSwitchboard(t: TestServer, c: Client, sb: Obj, statuses = ['success', 'failure']): Promise<Obj> {
  let done!: () => void;
  const reached = new Promise<void>((res) => (done = res));
  const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
    const fields = msg.fields as Record<string, unknown> | undefined;
    if (msg.resource_uri === sb.resource_uri && fields && statuses.includes(String(fields.status))) done();
  });
  try {
    const now = expectStatus<Obj>(await c.get(sb.resource_uri), 200);
    if (!statuses.includes(now.status) || now.execution?.status === 'started') await reached;
  } finally {
    sub.dispose();
  }
  return expectStatus<Obj>(await c.get(sb.resource_uri), 200);
}

/** Runs the switchboard (body: node, from_here, force) and waits for the end; returns the execution. */
export async function runAndWait(t: TestServer, c: Client, sb: Obj, body: Record<string, unknown> = {}): Promise<Obj> {
  const started = expectStatus<Obj>(await c.post(`${sb.resource_uri}run/`, body), 202);
  await waitForExecution(t, c, started);
  return expectStatus<Obj>(await c.get(started.resource_uri), 200);
}

/** Resolves when the execution has ended (live events of its switchboard). */
export async function waitForExecution(t: TestServer, c: Client, execution: Obj): Promise<Obj> {
  for (;;) {
    let done!: () => void;
    const changed = new Promise<void>((res) => (done = res));
    const sub = t.server.bus.subscribe(LIVE_CHANNEL, (msg) => {
      if (msg.resource_uri === execution.switchboard) done();
    });
    try {
      const now = expectStatus<Obj>(await c.get(execution.resource_uri), 200);
      if (now.status !== 'started') return now;
      await changed;
    } finally {
      sub.dispose();
    }
  }
}

/** The object at `uri` (200). */
export const get = async (c: Client, uri: string): Promise<Obj> => expectStatus<Obj>(await c.get(uri), 200);

/** The objects of a list reply (200). */
export const list = async (c: Client, url: string): Promise<Obj[]> =>
  expectStatus<{ objects: Obj[] }>(await c.get(url), 200).objects;

/** Gives `user` exactly `perms` on the switchboard (as its owner). */
export const grant = async (owner: Client, sb: Obj, user: User, perms: Grant[]) =>
  expectStatus<Obj>(await owner.patch(sb.resource_uri, { permissions: [{ user: userUri(user.id), perms }] }), 200);

/** An error reply with `status` and `code` that names `field` (or a field matching it). */
export const assertField = (res: Reply, status: number, code: string, field: string | RegExp) => {
  assertError(res, status, code);
  if (field instanceof RegExp) assert.match(String(res.body.field), field);
  else assert.equal(res.body.field, field);
};

/**
 * One server per suite with the switchboard plugins (and `plugins`, with `config`) and two
 * signed-in users; its log is printed when a test fails. Call inside `describe`; `get()` in a
 * `before` hook (after this one) gives them.
 */
export function switchboardServer(
  options: { plugins?: string[]; config?: NonNullable<Parameters<typeof startTestServer>[0]>['config'] } = {},
): { get(): { t: TestServer; alice: User; bob: User } } {
  let state: { t: TestServer; alice: User; bob: User } | undefined;
  const logs: string[] = [];
  afterEach(function () {
    if (this.currentTest?.state === 'failed') console.log(logs.join('\n'));
    logs.length = 0;
  });
  before(async () => {
    const t = await startTestServer({
      plugins: [...SWITCHBOARD_PLUGINS, ...(options.plugins ?? [])],
      config: options.config,
      logs,
    });
    state = { t, alice: await t.user(), bob: await t.user() };
  });
  after(() => state?.t.close());
  return { get: () => state! };
}

// The test kit first: it installs the DOM before anything loads React (specs share one process).
import '../switchboards-test-kit';
import assert from 'node:assert/strict';
import type { Link, Port } from '../../common/switchboard-types';
import { slotsOf, slotKeyOf } from './port-slots';
import { UndoStack } from './undo-stack';
import { pickRenderer } from './canvas-view-context';
import { LiveConnection, RECONNECT_FIRST_MS, RECONNECT_MAX_MS } from './live-connection';
import { CanvasStore } from './canvas-store';
import type { ApiClient } from '@werkbank/sdk/browser';
import type { SbNode } from '../../common/switchboard-types';

const port = (patch: Partial<Port>): Port => ({
  name: 'values',
  content_type: '/api/v1/type/string/',
  is_input: true,
  is_optional: false,
  is_list: false,
  is_dict: false,
  default_value: null,
  ...patch,
});
const link = (patch: Partial<Link>): Link => ({
  id: 1,
  resource_uri: '/api/v1/link/1/',
  node: '/api/v1/node/1/',
  frame: '/api/v1/frame/1/',
  name: 'values',
  is_input: true,
  list_index: null,
  dict_key: null,
  ...patch,
});

describe('canvas model', () => {
  describe('port slots (spec 000 §4)', () => {
    it('a list port shows slots up to the highest used index plus two', () => {
      const p = port({ is_list: true });
      assert.deepEqual(
        slotsOf(p, []).map((s) => s.key),
        ['values[0]', 'values[1]'],
      );
      assert.deepEqual(
        slotsOf(p, [link({ list_index: 0 }), link({ list_index: 3 })]).map((s) => s.listIndex),
        [0, 1, 2, 3, 4, 5],
      );
    });
    it('a dict port shows one slot per key plus an empty one', () => {
      const p = port({ is_dict: true });
      const slots = slotsOf(p, [link({ dict_key: 'b' }), link({ dict_key: 'a' })]);
      assert.deepEqual(
        slots.map((s) => s.key),
        ['values{a}', 'values{b}', 'values{}'],
      );
      assert.equal(slotKeyOf(link({ dict_key: 'a' })), 'values{a}');
      assert.equal(slotKeyOf(link({ list_index: 2 })), 'values[2]');
    });
    it('a plain port has one slot named after it', () => {
      assert.deepEqual(
        slotsOf(port({}), [link({})]).map((s) => s.key),
        ['values'],
      );
    });
  });

  describe('undo stack', () => {
    it('undoes and redoes in order and follows re-created objects to their new address', async () => {
      const u = new UndoStack();
      const log: string[] = [];
      u.push({
        label: 'a',
        refs: ['/api/v1/node/1/'],
        undo: async () => void log.push('undo a'),
        redo: async () => void log.push('redo a'),
      });
      u.alias('/api/v1/node/1/', '/api/v1/node/7/');
      assert.equal(u.resolve('/api/v1/node/1/'), '/api/v1/node/7/');
      await u.undo();
      await u.redo();
      assert.deepEqual(log, ['undo a', 'redo a']);
      assert.equal(u.canUndo, true);
    });
    it('drops the entries touching an object someone else deleted', async () => {
      const u = new UndoStack();
      const noop = async () => undefined;
      u.push({ label: 'move', refs: ['/api/v1/node/1/'], undo: noop, redo: noop });
      u.push({ label: 'insert', refs: ['/api/v1/note/2/'], undo: noop, redo: noop });
      u.alias('/api/v1/node/1/', '/api/v1/node/9/');
      u.invalidate('/api/v1/node/9/');
      assert.equal((await u.undo())?.label, 'insert');
      assert.equal(await u.undo(), undefined);
    });
    it('a new edit clears what could be redone', async () => {
      const u = new UndoStack();
      const noop = async () => undefined;
      u.push({ label: 'a', refs: [], undo: noop, redo: noop });
      await u.undo();
      assert.equal(u.canRedo, true);
      u.push({ label: 'b', refs: [], undo: noop, redo: noop });
      assert.equal(u.canRedo, false);
    });
    it('an edit made while a redo is under way is undone first, then the redone one', async () => {
      const u = new UndoStack();
      const log: string[] = [];
      let finish = () => undefined as void;
      const entry = (label: string, slow = false) => ({
        label,
        refs: [],
        undo: async () => void log.push(`undo ${label}`),
        redo: async () => {
          if (slow) await new Promise<void>((resolve) => (finish = resolve));
          log.push(`redo ${label}`);
        },
      });
      u.push(entry('insert', true));
      await u.undo();
      const redoing = u.redo();
      assert.equal(u.canUndo, false, 'no undo while the redo runs');
      u.push(entry('move'));
      finish();
      await redoing;
      assert.equal((await u.undo())?.label, 'move');
      assert.equal((await u.undo())?.label, 'insert');
      assert.deepEqual(log, ['undo insert', 'redo insert', 'undo move', 'undo insert']);
    });
    it('an edit made while an undo is under way leaves nothing to redo', async () => {
      const u = new UndoStack();
      let finish = () => undefined as void;
      const slow = () => new Promise<void>((resolve) => (finish = resolve));
      const noop = async () => undefined;
      u.push({ label: 'a', refs: [], undo: slow, redo: noop });
      const undoing = u.undo();
      u.push({ label: 'b', refs: [], undo: noop, redo: noop });
      finish();
      await undoing;
      assert.equal(u.canRedo, false);
      assert.equal((await u.undo())?.label, 'b');
      assert.equal(await u.undo(), undefined);
    });
  });

  it('picks a node renderer: exact name, then the longest namespace, then *, then priority', () => {
    const c = () => null;
    const all = [
      { id: 'x.default', functions: ['*'], priority: 0, component: c },
      { id: 'x.string', functions: ['string.'], priority: 1, component: c },
      { id: 'x.upper', functions: ['string.upper'], priority: 0, component: c },
      { id: 'x.high', functions: ['*'], priority: 5, component: c },
    ];
    assert.equal(pickRenderer(all, 'string.upper')?.id, 'x.upper');
    assert.equal(pickRenderer(all, 'string.lower')?.id, 'x.string');
    assert.equal(pickRenderer(all, 'frame.merge')?.id, 'x.high');
  });

  describe('live connection (spec 000 §4)', () => {
    class FakeSocket {
      static made: FakeSocket[] = [];
      readyState = 1;
      sent: string[] = [];
      onmessage?: (e: { data: string }) => void;
      onclose?: (e: { wasClean: boolean; code: number }) => void;
      constructor() {
        FakeSocket.made.push(this);
      }
      send(t: string) {
        this.sent.push(t);
      }
      close() {
        this.onclose?.({ wasClean: true, code: 1000 });
      }
    }
    afterEach(() => (FakeSocket.made = []));

    it('reconnects after an unclean close with a doubling delay up to the maximum, and reports the state', () => {
      const states: boolean[] = [];
      const waits: number[] = [];
      const conn = new LiveConnection(
        'ws://x',
        { onMessage: () => undefined, onState: (s) => states.push(s) },
        () => new FakeSocket() as unknown as WebSocket,
        (run, ms) => {
          waits.push(ms);
          run();
          return 0 as unknown as ReturnType<typeof setTimeout>;
        },
      );
      FakeSocket.made[0].onmessage!({ data: JSON.stringify({ type: 'SUBSCRIBED' }) });
      for (let i = 0; i < 8; i++) FakeSocket.made[FakeSocket.made.length - 1].onclose!({ wasClean: false, code: 1006 });
      assert.deepEqual(waits, [500, 1000, 2000, 4000, 8000, 16000, 16000, 16000]);
      assert.equal(waits[0], RECONNECT_FIRST_MS);
      assert.equal(Math.max(...waits), RECONNECT_MAX_MS);
      assert.deepEqual(states, [true, false]);
      assert.equal(FakeSocket.made.length, 9);
      // A successful reconnect starts again from the first delay.
      FakeSocket.made[8].onmessage!({ data: JSON.stringify({ type: 'SUBSCRIBED' }) });
      assert.equal(conn.nextDelay, RECONNECT_FIRST_MS);
      assert.deepEqual(states, [true, false, true]);
      conn.dispose();
    });

    it('reports the connection down when the first one cannot be made at all (issue 14 item 17)', () => {
      const states: boolean[] = [];
      const conn = new LiveConnection(
        'ws://x',
        { onMessage: () => undefined, onState: (s) => states.push(s) },
        () => new FakeSocket() as unknown as WebSocket,
        () => 0 as unknown as ReturnType<typeof setTimeout>,
      );
      // A proxy that refuses websockets: the socket closes before it ever opened.
      FakeSocket.made[0].onclose!({ wasClean: false, code: 1006 });
      assert.deepEqual(states, [false]);
      conn.dispose();
    });

    it('stops after a clean close', () => {
      const conn = new LiveConnection(
        'ws://x',
        { onMessage: () => undefined, onState: () => undefined },
        () => new FakeSocket() as unknown as WebSocket,
      );
      FakeSocket.made[0].onclose!({ wasClean: true, code: 1000 });
      assert.equal(conn.isStopped, true);
      assert.equal(FakeSocket.made.length, 1);
    });
  });

  it('reads a node again when a live event says it failed, for the message in the reader’s language (issue 14 item 19)', async () => {
    const uri = '/api/v1/node/3/';
    const german = { resource_uri: uri, status: 'failure', runinfo: { progress: 0, count: 1, exception: 'Auf Deutsch' } };
    const api = {
      get: async (path: string) => (path === uri ? german : Promise.reject(new Error(path))),
    } as unknown as ApiClient;
    const store = new CanvasStore(api, 1);
    store.put({
      resource_uri: uri,
      status: 'started',
      runinfo: { progress: 10, count: 0, exception: null },
    } as unknown as SbNode);
    store.apply({ type: 'UPDATE', resource_uri: uri, fields: { status: 'failure', runinfo: { exception: 'In English' } } });
    await new Promise((resolve) => setTimeout(resolve, 0));
    assert.equal(store.nodes.get(uri)!.runinfo.exception, 'Auf Deutsch');
  });

  it('keeps the links of each node and frame in step with its links (put, update, delete, replace)', () => {
    const store = new CanvasStore({} as ApiClient, 1);
    const uris = (list: Link[]) => list.map((l) => l.resource_uri);
    const n1 = '/api/v1/node/1/';
    const f1 = '/api/v1/frame/1/';
    const f2 = '/api/v1/frame/2/';
    const a = link({ id: 1, resource_uri: '/api/v1/link/1/', node: n1, frame: f1 });
    const b = link({ id: 2, resource_uri: '/api/v1/link/2/', node: n1, frame: f2, is_input: false, name: 'result' });
    store.replace({ switchboard: {} as never, nodes: [], frames: [], notes: [], links: [a, b] });
    assert.deepEqual(uris(store.linksOf(n1)), [a.resource_uri, b.resource_uri]);
    assert.deepEqual(uris(store.linksOf(f1)), [a.resource_uri]);
    assert.deepEqual(uris(store.linksOf(f2)), [b.resource_uri]);
    // Put again (a reply after an edit): same place, the new fields.
    store.put({ ...a, dict_key: 'k' });
    assert.deepEqual(uris(store.linksOf(n1)), [a.resource_uri, b.resource_uri]);
    assert.equal(store.linksOf(f1)[0]!.dict_key, 'k');
    // A live update moving the link to another frame.
    store.apply({ type: 'UPDATE', resource_uri: a.resource_uri, fields: { frame: f2 } });
    assert.deepEqual(uris(store.linksOf(f1)), []);
    assert.deepEqual(uris(store.linksOf(f2)), [b.resource_uri, a.resource_uri]);
    // A deleted link leaves both ends; a deleted frame takes its links.
    store.apply({ type: 'LINK_DELETE', resource_uri: b.resource_uri });
    assert.deepEqual(uris(store.linksOf(n1)), [a.resource_uri]);
    store.apply({ type: 'FRAME_DELETE', resource_uri: f2 });
    assert.deepEqual(uris(store.linksOf(n1)), []);
    assert.equal(store.links.size, 0);
    // Replace starts from the new content only.
    store.replace({ switchboard: {} as never, nodes: [], frames: [], notes: [], links: [b] });
    assert.deepEqual(uris(store.linksOf(n1)), [b.resource_uri]);
    assert.deepEqual(uris(store.linksOf(f1)), []);
  });
});

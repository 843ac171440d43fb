import assert from 'node:assert/strict';
import { FunctionContribution, Kernel, Registry, type FunctionDescriptor } from '@werkbank/sdk/node';
import plugin from './basic-functions-node-module';
import { fakeRunContext } from '@werkbank/testing/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

/** A DepotAccess that records calls: depot 3 holds two strings at moment 30. */
function recordingDepots() {
  const calls: unknown[][] = [];
  const fake: DepotAccess = {
    read: async (user, depot, momentId) => {
      calls.push(['read', user.id, depot, momentId]);
      return {
        depot_id: 3,
        moment_id: momentId ?? 30,
        content_type: 'string',
        items: [{ value: 'a' }, { value: 'b' }],
        indexes: [301, 302],
      };
    },
    write: async (user, depot, items, options) => {
      calls.push(['write', user.id, depot, items, options]);
      return { depot_id: 3, moment_id: 31 };
    },
    writeStream: async () => {
      throw new Error('not used by the functions');
    },
    datum: async () => {
      throw new Error('not used by the functions');
    },
    saveDatum: async () => {
      throw new Error('not used by the functions');
    },
    datumIn: async () => {
      throw new Error('not used by the functions');
    },
    intersecting: async () => {
      throw new Error('not used by the functions');
    },
    windowReader: async () => {
      throw new Error('not used by the functions');
    },
    count: async () => {
      throw new Error('not used by the functions');
    },
    readStream: async () => {
      throw new Error('not used by the functions');
    },
  };
  return { fake, calls };
}

/** Loads the plugin alone into a fresh kernel with a recording DepotAccess (STYLE §13). */
function loadPlugin(fake: DepotAccess): { kernel: Kernel; functions: Registry<FunctionDescriptor> } {
  const kernel = new Kernel({ log: () => undefined });
  kernel.container.bind(DepotAccess).toConstantValue(fake);
  kernel.load([{ manifest: { id: 'basic-functions' }, module: plugin }]);
  const functions = new Registry<FunctionDescriptor>('function');
  kernel.collect(FunctionContribution, functions, (c, s) => c.registerFunctions(s));
  return { kernel, functions };
}

describe('basic functions: the plugin and its depot functions', () => {
  it('contributes namespaced functions with German and English names and docs', () => {
    const { kernel, functions } = loadPlugin(recordingDepots().fake);
    const ids = functions.all().map((f) => f.id);
    for (const id of [
      'string.concat',
      'number.divide',
      'number.compare',
      'bool.not',
      'frame.merge',
      'depot.read',
      'depot.store',
      'test.wait',
    ]) {
      assert.ok(ids.includes(id), id);
    }
    for (const f of functions.all()) {
      assert.match(f.id, /^[a-z]+\.[a-z]+$/);
      assert.equal(f.version, '1', f.id);
      for (const lang of ['de', 'en']) assert.ok(f.verbose_name[lang] && f.doc[lang], `${f.id} ${lang}`);
      assert.equal(functions.ownerOf(f.id), 'basic-functions');
    }
    kernel.dispose();
  });

  it('depot.read reads each depot as the running user and records the moments it read', async () => {
    const { fake, calls } = recordingDepots();
    const { kernel, functions } = loadPlugin(fake);
    const ctx = fakeRunContext();
    const out = await functions.get('depot.read')!.run({ depot: [{ value: '/api/v1/depot/3/' }] }, ctx);
    assert.deepEqual(out.datums, [{ value: 'a' }, { value: 'b' }]);
    assert.deepEqual(ctx.reads, [{ depot_id: 3, moment_id: 30 }]);
    await functions.get('depot.read')!.run({ depot: [{ value: 3 }], moment: [{ value: 12 }] }, ctx);
    assert.deepEqual(calls, [
      ['read', 7, '/api/v1/depot/3/', undefined],
      ['read', 7, 3, 12],
    ]);
    await assert.rejects(functions.get('depot.read')!.run({ depot: [{ value: {} }] }, ctx), { code: 'not_a_depot' });
    assert.deepEqual(ctx.logs, ['read 2 datums of depot 3 at moment 30', 'read 2 datums of depot 3 at moment 12']);
    kernel.dispose();
  });

  it('depot.read pairs depots and moments item by item, one of either going with every item of the other', async () => {
    const { fake, calls } = recordingDepots();
    const { kernel, functions } = loadPlugin(fake);
    const read = (inputs: Record<string, unknown[]>) =>
      functions
        .get('depot.read')!
        .run(Object.fromEntries(Object.entries(inputs).map(([k, vs]) => [k, vs.map((value) => ({ value }))])), fakeRunContext());
    await read({ depot: [3, 4], moment: [12] });
    await read({ depot: [5], moment: [13, null] });
    await read({ depot: [6, 7], moment: [14, 15] });
    await read({ depot: [8, 9] });
    assert.deepEqual(
      calls.map(([, , depot, moment]) => [depot, moment]),
      [
        [3, 12],
        [4, 12],
        [5, 13],
        [5, undefined],
        [6, 14],
        [7, 15],
        [8, undefined],
        [9, undefined],
      ],
    );
    await assert.rejects(read({ depot: [3], moment: [12, 1.5] }), (e: any) => {
      assert.equal(e.code, 'not_an_integer');
      assert.deepEqual(e.params, { item: 'moment[1]' });
      return true;
    });
    await assert.rejects(read({ depot: [3, '  '] }), (e: any) => {
      assert.equal(e.code, 'not_a_depot');
      assert.deepEqual(e.params, { item: 'depot[1]' });
      return true;
    });
    await assert.rejects(read({ depot: [3, 4, 5], moment: [1, 2] }), { code: 'length_mismatch' });
    kernel.dispose();
  });

  it('depot.store writes as the running user, naming the node run, replacing unless told to append', async () => {
    const { fake, calls } = recordingDepots();
    const { kernel, functions } = loadPlugin(fake);
    const store = functions.get('depot.store')!;
    const datums = [{ value: 'x' }];
    const ctx = fakeRunContext();
    const out = await store.run({ depot: [{ value: '/api/v1/depot/3/' }], datums }, ctx);
    assert.deepEqual(out.moment, [{ value: 31 }]);
    assert.deepEqual(ctx.writes, [{ depot_id: 3, moment_id: 31 }]);
    await store.run({ depot: [{ value: '3' }], datums, mode: [{ value: 'append' }] }, fakeRunContext());
    assert.deepEqual(calls, [
      ['write', 7, '/api/v1/depot/3/', datums, { nodeRunId: 42, mode: 'replace', lang: 'en' }],
      ['write', 7, '3', datums, { nodeRunId: 42, mode: 'append', lang: 'en' }],
    ]);
    assert.deepEqual(ctx.logs, ['wrote 1 datums to depot 3 as moment 31']);
    await assert.rejects(
      store.run({ depot: [{ value: '3' }], datums, mode: [{ value: 'merge' }] }, fakeRunContext()),
      (e: any) => {
        assert.equal(e.code, 'invalid_mode');
        assert.deepEqual(e.params, { mode: 'merge' });
        return true;
      },
    );
    await assert.rejects(store.run({ depot: [{ value: '3' }, { value: '4' }], datums }, fakeRunContext()), (e: any) => {
      assert.equal(e.code, 'parameter_single');
      assert.deepEqual(e.params, { port: 'depot', count: 2 });
      return true;
    });
    assert.equal(calls.length, 2, 'nothing written after a refused call');
    kernel.dispose();
  });
});

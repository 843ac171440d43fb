// The test kit first: it installs the DOM before anything loads React (specs share one process).
import '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { TypeRegistry } from '@werkbank/sdk';
import type { ApiClient } from '@werkbank/sdk/browser';
import { canLink } from '../../common/can-link';
import { ServerTypes } from './server-types';

const port = { name: 'dataset', content_type: 'sta-livedataset', is_input: true };

describe('canvas: the link rule asks the server’s types', () => {
  // The browser registers the core types only; geodata registers its live dataset types on the server.
  const browser = new TypeRegistry();
  browser.add({ id: 'types.any', name: 'any' }, 'types');
  browser.add({ id: 'types.object', name: 'object' }, 'types');

  it('accepts a link of a type only the server registers, as the server does', async () => {
    const api = {
      get: async () => ({
        objects: [
          { name: 'any', base_chain: ['any'] },
          { name: 'sta-livedataset', base_chain: ['sta-livedataset'] },
        ],
        meta: {},
      }),
    } as unknown as ApiClient;
    const types = new ServerTypes(browser);
    assert.equal(canLink(types, 'sta-livedataset', port).ok, false, 'not before the server’s list is there');
    await types.load(api);
    assert.deepEqual(canLink(types, 'sta-livedataset', port), { ok: true });
    assert.equal(canLink(types, 'object', port).ok, false);
  });

  it('keeps asking the browser’s registry when the list cannot be had', async () => {
    const types = new ServerTypes(browser);
    await types.load({ get: async () => Promise.reject(new Error('offline')) } as unknown as ApiClient);
    assert.deepEqual(canLink(types, 'object', { name: 'x', content_type: 'any', is_input: true }), { ok: true });
  });
});

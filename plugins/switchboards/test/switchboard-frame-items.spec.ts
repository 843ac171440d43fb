import assert from 'node:assert/strict';
import { assertError, expectStatus } from '@werkbank/testing/node';
import {
  addFrame,
  addNode,
  assertField,
  contentOf,
  FRAMES,
  get,
  grant,
  link,
  newSwitchboard,
  switchboardServer,
  type User,
} from './switchboard-support';

const row = (value: Record<string, unknown>) => ({ value });

/** One item of a frame at a time (docs/api.md "frame"): the frame dialog's table and single view. */
describe('Switchboard frames: editing one item', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let alice: User;
  let bob: User;
  before(() => ({ alice, bob } = server.get()));

  it('PATCH {frame}content/{i}/ replaces the sent fields of that item, validated against the type', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'row', [row({ river: 'Elbe', km: 1094 }), row({ river: 'Rhein', km: 1233 })]);
    const reply = expectStatus(
      await alice.client.patch(`${FRAMES}${frame.id}/content/1/`, { value: { river: 'Rhine', km: 1233 }, index: 1 }),
      200,
    );
    assert.deepEqual(reply.item, { value: { river: 'Rhine', km: 1233 }, index: 1 });
    assert.equal(reply.frame.size, 2);
    assert.match(reply.frame.content_hash, /^[0-9a-f]{64}$/);
    assert.deepEqual(await contentOf(alice.client, frame), [row({ river: 'Elbe', km: 1094 }), row({ river: 'Rhine', km: 1233 })]);
    const after = await get(alice.client, frame.resource_uri);
    assert.equal(after.content_hash, reply.frame.content_hash);
    assert.equal(after.text_repr, reply.frame.text_repr);

    assertField(
      await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { value: { river: { nested: true } } }),
      400,
      'invalid_value',
      /^content\[0\]\.value/,
    );
    assertError(await alice.client.patch(`${FRAMES}${frame.id}/content/2/`, { value: {} }), 404, 'item_missing');
  });

  it('DELETE removes one item, duplicate/ inserts a copy after it', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'string', [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    const dup = expectStatus(await alice.client.post(`${FRAMES}${frame.id}/content/0/duplicate/`, {}), 201);
    assert.deepEqual(dup.item, { value: 'a', index: 1 });
    expectStatus(await alice.client.delete(`${FRAMES}${frame.id}/content/2/`), 200);
    assert.deepEqual(await contentOf(alice.client, frame), [{ value: 'a' }, { value: 'a' }, { value: 'c' }]);
    assert.equal((await get(alice.client, frame.resource_uri)).size, 3);
  });

  it('refuses an edit based on content that changed meanwhile (content_hash) with 409 content_changed', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'int', [{ value: 1 }, { value: 2 }]);
    const read = (await get(alice.client, frame.resource_uri)).content_hash as string;
    const first = expectStatus(
      await alice.client.patch(`${FRAMES}${frame.id}/content/0/?content_hash=${read}`, { value: 10 }),
      200,
    );
    assertError(
      await alice.client.patch(`${FRAMES}${frame.id}/content/1/?content_hash=${read}`, { value: 20 }),
      409,
      'content_changed',
    );
    expectStatus(
      await alice.client.patch(`${FRAMES}${frame.id}/content/1/?content_hash=${first.frame.content_hash}`, { value: 20 }),
      200,
    );
    assertError(await alice.client.delete(`${FRAMES}${frame.id}/content/0/?content_hash=nope`), 400, 'invalid_parameter');
    assert.deepEqual(await contentOf(alice.client, frame), [{ value: 10 }, { value: 20 }]);
  });

  it('needs write on the switchboard and marks the nodes reading the frame outdated', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'int', [{ value: 1 }]);
    const node = await addNode(alice.client, sb, 'number.sum');
    await link(alice.client, node, node.ports.find((p: { is_input: boolean }) => p.is_input).name, frame, true);
    assertError(await bob.client.patch(`${FRAMES}${frame.id}/content/0/`, { value: 2 }), 404, 'not_found');
    await grant(alice.client, sb, bob, ['read']);
    assertError(await bob.client.patch(`${FRAMES}${frame.id}/content/0/`, { value: 2 }), 403, 'permission_denied');
    assertError(await bob.client.delete(`${FRAMES}${frame.id}/content/0/`), 403, 'permission_denied');
    expectStatus(await alice.client.patch(`${FRAMES}${frame.id}/content/0/`, { value: 2 }), 200);
    assert.equal((await get(alice.client, node.resource_uri)).outdated, true);
  });
});

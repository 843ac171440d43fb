import assert from 'node:assert/strict';
import { assertError, EVENTS, expectStatus, type Client } from '@werkbank/testing/node';
import { addNode, grant, newSwitchboard, runAndWait, switchboardServer, type Obj } from './switchboard-support';

const support = (run: Obj | number) => `/api/v1/noderun/${typeof run === 'number' ? run : run.id}/support/`;

/** The support request of a failed node run (spec 000 §5, §7; docs/api.md "Running"). */
describe('Switchboard support requests', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let failed: Obj;
  let succeeded: Obj;
  let sb: Obj;

  /** A switchboard of alice's with a node that fails ('boom') and one that succeeds; their runs. */
  before(async () => {
    const { t, alice } = server.get();
    sb = await newSwitchboard(alice.client);
    const boom = await addNode(alice.client, sb, 'test.fail', [{ name: 'message', default_value: { value: 'boom' } }]);
    const fine = await addNode(alice.client, sb, 'string.upper', [{ name: 'value', default_value: { value: 'ok' } }]);
    const execution = await runAndWait(t, alice.client, sb);
    const runs = execution.runs as Obj[];
    failed = runs.find((r) => r.node === boom.resource_uri)!;
    succeeded = runs.find((r) => r.node === fine.resource_uri)!;
    assert.equal(failed.status, 'failure');
    assert.equal(succeeded.status, 'success');
  });

  /** The feed entries of the support requests for `run` that `c` sees. */
  async function requestsSeenBy(c: Client, run: Obj): Promise<Obj[]> {
    const feed = expectStatus<{ objects: Obj[] }>(await c.get(`${EVENTS}?content_kind=switchboard&limit=100`), 200).objects;
    return feed.filter((e) => e.metadata?.action === 'support_request' && e.metadata.run === `/api/v1/noderun/${run.id}/`);
  }

  it('records a request with its message in the activity feed, where an administrator sees it', async () => {
    const { t, alice } = server.get();
    const reply = expectStatus(await alice.client.post(support(failed), { message: 'Why does it fail?' }), 201);
    assert.deepEqual(reply, { status: 'sent' });
    const admin = await t.admin();
    const [entry] = await requestsSeenBy(admin, failed);
    assert.ok(entry, 'the administrator sees the request');
    assert.equal(entry.content_object, sb.resource_uri);
    assert.equal(entry.metadata.message, 'Why does it fail?');
    assert.equal(entry.metadata.func, 'test.fail');
    assert.equal(entry.metadata.exception, 'boom');
    assert.equal(entry.metadata.node, failed.node);
  });

  it('refuses a second request for the same run by the same user within a minute', async () => {
    const { alice } = server.get();
    assertError(await alice.client.post(support(failed), {}), 429, 'support_requested');
  });

  it('takes a request without a message from a reader of the switchboard', async () => {
    const { alice, bob } = server.get();
    await grant(alice.client, sb, bob, ['read']);
    expectStatus(await bob.client.post(support(failed), {}), 201);
    const entry = (await requestsSeenBy(alice.client, failed)).find((e) => e.metadata.message === '');
    assert.ok(entry, "the owner sees the reader's request");
  });

  it('refuses a run that did not fail', async () => {
    const { alice } = server.get();
    assertError(await alice.client.post(support(succeeded), { message: 'all fine' }), 400, 'run_not_failed');
  });

  it('does not let a stranger find the run', async () => {
    const { t, alice } = server.get();
    const stranger = await t.user();
    const other = await newSwitchboard(alice.client);
    const boom = await addNode(alice.client, other, 'test.fail');
    const execution = await runAndWait(t, alice.client, other);
    const run = (execution.runs as Obj[]).find((r) => r.node === boom.resource_uri)!;
    assertError(await stranger.client.post(support(run), {}), 404, 'not_found');
    assertError(await stranger.client.post(support(999_999), {}), 404, 'not_found');
    assertError(await stranger.client.post(support('x' as never), {}), 404, 'not_found');
  });

  it('checks the message and the fields of the body', async () => {
    const { t, alice } = server.get();
    const other = await newSwitchboard(alice.client);
    const boom = await addNode(alice.client, other, 'test.fail');
    const execution = await runAndWait(t, alice.client, other);
    const run = (execution.runs as Obj[]).find((r) => r.node === boom.resource_uri)!;
    const tooLong = await alice.client.post(support(run), { message: 'x'.repeat(2001) });
    assertError(tooLong, 400, 'invalid_field');
    assert.equal(tooLong.body.field, 'message');
    assertError(await alice.client.post(support(run), { message: 42 }), 400, 'invalid_field');
    assertError(await alice.client.post(support(run), { node: 1 }), 400, 'unknown_field');
    expectStatus(await alice.client.post(support(run), { message: 'x'.repeat(2000) }), 201);
  });

  it('needs the CSRF header and a signed-in user', async () => {
    const { t, alice } = server.get();
    assertError(await alice.client.post(support(failed), {}, { csrf: false }), 403, 'csrf_missing');
    const anonymous = t.client();
    const res = await anonymous.post(support(failed), {});
    assert.ok([401, 403].includes(res.status), `anonymous got ${res.status}`);
  });

  it('is described in /api/openapi.json', async () => {
    const { alice } = server.get();
    const spec = expectStatus(await alice.client.get('/api/openapi.json'), 200);
    assert.ok(spec.paths['/api/v1/noderun/{id}/support/']?.post);
  });
});

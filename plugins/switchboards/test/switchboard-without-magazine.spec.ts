import { assertError, expectStatus, startTestServer, type TestServer } from '@werkbank/testing/node';
import { SWITCHBOARDS } from './switchboard-support';

/** The Magazine is optional for switchboards: a Werkbank without it starts and runs canvases. */
describe('switchboards without the Magazine', function () {
  let t: TestServer;

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'switchboards'] });
  });
  after(async () => t?.close());

  it('starts, creates a switchboard, and answers 404 for a switchboard from a datum', async () => {
    const admin = await t.admin();
    expectStatus(await admin.post(SWITCHBOARDS, { name: 'Ohne Magazin' }), 201);
    assertError(await admin.post('/api/v2/switchboard/create/datum/', { datum: '/api/v1/datum/1/' }), 404, 'not_found');
  });
});

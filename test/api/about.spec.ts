import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { assertError, expectStatus, startTestServer, type TestServer } from '@werkbank/testing/node';

const ROOT = resolve(import.meta.dirname, '../..');
const ABOUT = '/api/v2/backend/about';

/** Issue 19 "Also": /about/ shows the version, the plugins' and components' licences and the third-party licences. */
describe('about: version, plugin and component licences, third-party licences from the lockfile', function () {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ plugins: ['admin', 'sessions'] });
  });
  after(async () => t?.close());

  it("answers Werkbank's version, the installed plugins and every component with its licence", async () => {
    const u = await t.user();
    const body = expectStatus(await u.client.get(ABOUT), 200);
    const root = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { version: string };
    assert.equal(body.version, root.version);
    assert.deepEqual(body.plugins.map((p: { id: string }) => p.id).sort(), ['admin', 'sessions']);
    const sessions = body.plugins.find((p: { id: string }) => p.id === 'sessions');
    assert.deepEqual(sessions.components, ['sessions']);
    assert.equal(sessions.package, '@werkbank/plugin-sessions');
    const stats = body.components.find((c: { id: string }) => c.id === 'api_stats');
    assert.equal(stats.enabled, true);
    assert.equal(stats.licence.development, true, 'enabled by the development licence');
  });

  it('lists the production dependencies with their licences, not development tools or our own packages', async () => {
    const body = expectStatus(await (await t.admin()).get(ABOUT), 200);
    const packages = body.third_party as Array<{ name: string; version: string; license: string | null }>;
    const koa = packages.find((p) => p.name === 'koa');
    const installed = JSON.parse(readFileSync(resolve(ROOT, 'node_modules/koa/package.json'), 'utf8')) as {
      version: string;
      license: string;
    };
    assert.deepEqual(koa && { version: koa.version, license: koa.license }, {
      version: installed.version,
      license: installed.license,
    });
    assert.ok(packages.some((p) => p.name === 'react'));
    assert.ok(!packages.some((p) => p.name === 'mocha'), 'a development dependency is not shipped');
    assert.ok(!packages.some((p) => p.name.startsWith('@werkbank/')), "Werkbank's own packages are not third-party");
    const keys = packages.map((p) => `${p.name}@${p.version}`);
    assert.equal(new Set(keys).size, keys.length, 'each name and version once');
    assert.ok(packages.filter((p) => p.license).length / packages.length > 0.95, 'nearly every package states its licence');
  });

  it('is for signed-in users only', async () => {
    assertError(await t.client().get(ABOUT), 401, 'not_authenticated');
  });
});

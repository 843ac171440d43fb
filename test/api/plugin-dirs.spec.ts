import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@werkbank/testing/node';

/** A plugin in a folder outside the Werkbank that uses the SDK and the Magazine's API. */
function writeProbePlugin(dir: string): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'probe-outside',
      version: '0.1.0',
      type: 'module',
      werkbank: { id: 'probe', optional: ['magazine'], node: 'src/probe-node-module.ts' },
      peerDependencies: { '@werkbank/sdk': '^0.1.0' },
    }),
  );
  writeFileSync(
    join(dir, 'src/probe-node-module.ts'),
    `import { definePlugin, HttpRouteContribution, inject, injectable, optional, type RegistrySink, type RouteDescriptor } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';

@injectable()
class ProbeRoutes implements HttpRouteContribution {
  @inject(DepotAccess) @optional() protected readonly depots?: DepotAccess;
  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void {
    registry.add({
      id: 'probe.depots',
      mount: (router) => router.get('/api/v1/probe/', (ctx) => void (ctx.body = { depots: !!this.depots })),
    });
  }
}
export default definePlugin((ctx) => ctx.contribute(HttpRouteContribution, ProbeRoutes));
`,
  );
}

/**
 * startTestServer finds plugins in folders outside the Werkbank (config.pluginDirs, as
 * WERKBANK_PLUGIN_DIRS), so a plugin developed in its own repository is tested alone; its imports
 * of the SDK and of another plugin's API resolve from the Werkbank (decision 0024).
 */
describe('test harness: a plugin from a folder outside the Werkbank', function () {
  this.timeout(60_000);
  let outside: string;
  let t: TestServer | undefined;
  before(() => {
    outside = mkdtempSync(join(tmpdir(), 'werkbank-plugin-dir-'));
    writeProbePlugin(join(outside, 'probe'));
  });
  after(async () => {
    await t?.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('loads it with the plugins it names, and it gets the Magazine’s DepotAccess', async () => {
    t = await startTestServer({ plugins: ['magazine', 'probe'], config: { pluginDirs: [outside] } });
    const reply = await (await t.admin()).get('/api/v1/probe/');
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.deepEqual(reply.body, { depots: true });
  });
});

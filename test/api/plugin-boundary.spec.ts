import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import {
  BlobStore,
  definePlugin,
  EntityContribution,
  HttpRouteContribution,
  inject,
  injectable,
  Logger,
  ResourceContribution,
  ServerConfig,
  type BlobInfo,
  type BlobPutOptions,
  type EntityDescriptor,
  type PluginEntry,
  type RegistrySink,
  type ResourceDefinition,
  type RouteDescriptor,
} from '@werkbank/sdk/node';
import { EntitySchema } from '@werkbank/sdk/node';
import { loadNodePlugins } from '@werkbank/server';
import { startTestServer } from '@werkbank/testing/node';
import { expectStatus } from './api-test-support';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import { uploadFile } from '@werkbank/plugin-magazine/testing';

const ROOT = new URL('../..', import.meta.url).pathname;

/** A plugin entry made in the test, contributing what `register` binds. */
const plugin = (id: string, register: Parameters<typeof definePlugin>[0], requires: string[] = []): PluginEntry => ({
  manifest: { id, requires },
  module: definePlugin(register),
});

const resource = (id: string, fields: Partial<ResourceDefinition>): ResourceContribution => ({
  registerResources: (r: RegistrySink<ResourceDefinition>) =>
    void r.add({ id, kind: id.replace(/\W/g, '_'), table: 'probe', fields: {}, ...fields }),
});

/** The core plugins the probes run beside. */
async function core(): Promise<PluginEntry[]> {
  return loadNodePlugins(ROOT, { chosen: ['types', 'tags'] });
}

async function refusedStart(entries: PluginEntry[]): Promise<string> {
  const t = await startTestServer({ entries }).then(
    (s) => s,
    (e: Error) => e,
  );
  if (!(t instanceof Error)) {
    await t.close();
    assert.fail('the server started although plugins clash');
  }
  return t.message;
}

describe('plugin boundary: clashes are refused at start-up, naming both plugins', function () {
  this.timeout(60000);

  it('refuses a plugin that declares a resource of a core kind (it would take over /api/v1/user/)', async () => {
    const evil = plugin('evil', (ctx) =>
      ctx.contribute(ResourceContribution, resource('evil.users', { kind: 'user', table: 'evil_user' })),
    );
    const message = await refusedStart([...(await core()), evil]);
    assert.match(message, /Resource kind 'user': claimed by the Werkbank core and again by plugin 'evil'/);
  });

  it('refuses two plugins serving one resource address, and two plugins on one table', async () => {
    const a = plugin('alpha', (ctx) =>
      ctx.contribute(ResourceContribution, resource('alpha.maps', { kind: 'map', path: '/api/v1/map/', table: 'alpha_map' })),
    );
    const b = plugin('beta', (ctx) =>
      ctx.contribute(ResourceContribution, resource('beta.maps', { kind: 'karte', path: '/api/v1/map/', table: 'beta_map' })),
    );
    assert.match(
      await refusedStart([...(await core()), a, b]),
      /Resource address '\/api\/v1\/map\/': claimed by plugin 'alpha' and again by plugin 'beta'/,
    );
    const c = plugin('gamma', (ctx) =>
      ctx.contribute(ResourceContribution, resource('gamma.maps', { kind: 'gmap', table: 'werkbank_tag' })),
    );
    assert.match(
      await refusedStart([...(await core()), c]),
      /Table 'werkbank_tag': claimed by plugin 'tags' and again by plugin 'gamma'/,
    );
  });

  it('refuses an entity schema on a table another plugin owns', async () => {
    const entities: EntityDescriptor = {
      id: 'delta.entities',
      entities: [new EntitySchema({ name: 'werkbank_tag', columns: { id: { type: Number, primary: true } } })],
      migrations: [],
    };
    const d = plugin('delta', (ctx) => ctx.contribute(EntityContribution, { registerEntities: (r) => void r.add(entities) }));
    assert.match(
      await refusedStart([...(await core()), d]),
      /Table 'werkbank_tag': claimed by plugin 'tags' and again by plugin 'delta'/,
    );
  });

  it('refuses two plugins mounting one route, whatever they call its parameters', async () => {
    const route = (id: string, path: string): HttpRouteContribution => ({
      registerHttpRoutes: (r: RegistrySink<RouteDescriptor>) =>
        void r.add({ id, mount: (router) => void router.get(path, (ctx) => (ctx.body = id)) }),
    });
    const a = plugin('alpha', (ctx) => ctx.contribute(HttpRouteContribution, route('alpha.stats', '/api/v2/stats/:id/')));
    const b = plugin('beta', (ctx) => ctx.contribute(HttpRouteContribution, route('beta.stats', '/api/v2/stats/:key/')));
    assert.match(
      await refusedStart([...(await core()), a, b]),
      /Route GET \/api\/v2\/stats\/:_\/: claimed by plugin 'alpha' and again by plugin 'beta'/,
    );
    const c = plugin('gamma', (ctx) => ctx.contribute(HttpRouteContribution, route('gamma.config', '/api/v2/backend/config')));
    assert.match(
      await refusedStart([...(await core()), c]),
      /Route GET \/api\/v2\/backend\/config: claimed by the Werkbank core and again by plugin 'gamma'/,
    );
  });

  it('refuses ids outside the contributing plugin’s namespace', async () => {
    const e = plugin('epsilon', (ctx) =>
      ctx.contribute(ResourceContribution, resource('maps.layers', { kind: 'eps', table: 'eps' })),
    );
    assert.match(
      await refusedStart([...(await core()), e]),
      /Plugin 'epsilon' registered resource 'maps\.layers': ids must start with the plugin id \('epsilon\.'\)/,
    );
  });

  it('refuses an entity contribution that injects a service (entity sets are collected before the database opens)', async () => {
    @injectable()
    class Needy implements EntityContribution {
      @inject(ServerConfig) protected readonly config!: ServerConfig;
      registerEntities(): void {}
    }
    const n = plugin('needy', (ctx) => ctx.contribute(EntityContribution, Needy));
    assert.match(await refusedStart([...(await core()), n]), /entity sets must be plain data and inject no service/);
  });
});

describe('plugin boundary: one token per service', function () {
  this.timeout(60000);

  /** A blob store that records what it is given and keeps the bytes in memory. */
  class RecordingBlobStore implements BlobStore {
    readonly puts: string[] = [];
    private readonly bytes = new Map<string, Buffer>();
    async put(source: Readable, opts: BlobPutOptions): Promise<BlobInfo> {
      const chunks: Buffer[] = [];
      for await (const c of source) chunks.push(c as Buffer);
      const data = Buffer.concat(chunks);
      const hash = (await import('node:crypto')).createHash('sha256').update(data).digest('hex');
      this.bytes.set(hash, data);
      this.puts.push(opts.filename ?? '');
      return { hash, size: data.length, mime: 'text/plain' };
    }
    async stat(hash: string) {
      const b = this.bytes.get(hash);
      return b ? { size: b.length } : undefined;
    }
    open(hash: string) {
      return Readable.from([this.bytes.get(hash) ?? Buffer.alloc(0)]);
    }
    async delete(hash: string) {
      this.bytes.delete(hash);
    }
  }

  it('a test replaces a service by its token and every plugin uses the replacement (the Magazine’s uploads)', async () => {
    const store = new RecordingBlobStore();
    const t = await startTestServer({ plugins: ['magazine'], services: [[BlobStore, store]] });
    try {
      const admin = await t.admin();
      const depot = await newDepot(admin, 'file');
      const id = expectStatus(await admin.post('/magazine/upload-reset/', { depot: depot.resource_uri }), 200).upload_id;
      const res = await uploadFile(admin, id, 'notiz.txt', Buffer.from('Zeile 1\n'));
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.deepEqual(store.puts, ['notiz.txt'], 'the upload went into the replaced blob store');
    } finally {
      await t.close();
    }
  });

  it('a plugin reads a service in its contribution’s constructor: it exists before any contribution is made', async () => {
    const seen: string[] = [];
    @injectable()
    class Early implements HttpRouteContribution {
      constructor(@inject(ServerConfig) config: ServerConfig, @inject(Logger) logger: Logger) {
        seen.push(typeof config.bodyLimit, typeof logger.log);
      }
      registerHttpRoutes(): void {}
    }
    const t = await startTestServer({
      entries: [...(await core()), plugin('early', (ctx) => ctx.contribute(HttpRouteContribution, Early))],
    });
    await t.close();
    assert.deepEqual(seen, ['number', 'function']);
  });
});

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { configFromEnv, WerkbankServer, loadNodePlugins } from '@werkbank/server';
import type { ServerConfig } from '@werkbank/sdk/node';
import type { PluginEntry } from '@werkbank/kernel';
import { TestClient } from './test-client';

export interface TestServerOptions {
  /**
   * Plugin ids to load, with what they require (the plugin under test alone, STYLE §13); default
   * every installed plugin but the examples.
   */
  plugins?: string[];
  /** Load the example plugins too (hello) when `plugins` is not given. */
  examples?: boolean;
  /**
   * The Werkbank installation whose plugins are discovered (default this repository); plugins in
   * folders outside it are found through `config.pluginDirs` (as WERKBANK_PLUGIN_DIRS).
   */
  root?: string;
  /**
   * Services to use instead of the server's, by token (`[[BlobStore, fake]]`): they replace the
   * core binding for every plugin, as Backstage's startTestBackend does with service factories.
   */
  services?: Array<[symbol, unknown]>;
  /** Plugin entries to load instead (e.g. a plugin under test with fakes). */
  entries?: PluginEntry[];
  config?: Partial<ServerConfig>;
  /** Collects log lines (licence refusals, slow hooks). */
  logs?: string[];
}

export interface TestServer {
  server: WerkbankServer;
  url: string;
  adminPassword: string;
  /** A signed-out client. */
  client(): TestClient;
  /** A client signed in as the first-start administrator. */
  admin(): Promise<TestClient>;
  /** Creates a user and returns a client signed in as that user. */
  user(fields?: {
    username?: string;
    is_superuser?: boolean;
    max_concurrent_sessions?: number | null;
    expiration_date?: Date | null;
    is_active?: boolean;
  }): Promise<{ id: number; username: string; password: string; client: TestClient }>;
  /**
   * Stops the server (its database stays), waits for `meanwhile`, then starts it again on the same
   * port with the same configuration. Data survives only on a database that outlives the process:
   * PostgreSQL, or PGlite with `config.dataDir` set to a folder.
   */
  restart(meanwhile?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Boots Werkbank with chosen plugins on a real database: embedded PGlite in memory by default;
 * with DATABASE_URL set, a fresh database on that PostgreSQL server, dropped again on close.
 * Listens on a free loopback port, so tests use real HTTP and websockets.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  let databaseUrl: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `werkbank_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
    dropDatabase = async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const adminPassword = `admin-${randomBytes(6).toString('hex')}`;
  const root = options.root ?? ROOT;
  const config: ServerConfig = {
    ...configFromEnv({}, root),
    dataDir: 'memory://',
    databaseUrl,
    adminPassword,
    ...options.config,
  };
  const entries =
    options.entries ??
    (await loadNodePlugins(root, { chosen: options.plugins, pluginDirs: config.pluginDirs, examples: options.examples }));
  const logs = options.logs;
  const make = () => new WerkbankServer({ config, plugins: entries, services: options.services, log: (m) => logs?.push(m) });
  let server = make();
  await server.start();
  const port = await server.listen(0);
  const url = `http://127.0.0.1:${port}`;
  let seq = 0;
  const t: TestServer = {
    server,
    url,
    adminPassword,
    client: () => new TestClient(url),
    async admin() {
      const c = new TestClient(url);
      await c.login(config.adminUsername, adminPassword);
      return c;
    },
    async user(fields = {}) {
      const username = fields.username ?? `user${++seq}_${randomBytes(3).toString('hex')}`;
      const password = `pw-${randomBytes(8).toString('hex')}`;
      const id = await server.accounts.createUser({ ...fields, username, password });
      const client = new TestClient(url);
      if (fields.is_active !== false && !fields.expiration_date) await client.login(username, password);
      return { id, username, password, client };
    },
    async restart(meanwhile) {
      await server.close();
      await meanwhile?.();
      server = make();
      await server.start();
      await server.listen(port);
      t.server = server;
    },
    async close() {
      await server.close();
      await dropDatabase?.();
    },
  };
  return t;
}
export { TestClient, type TestResponse } from './test-client';
export { fakeRunContext, TEST_USER, type FakeRunContext, type FakeStoredFile } from './fake-run-context';
/** The server's own implementations, for unit tests that need a real one (SSRF guard, schema checks). */
export { GuardedFetcher, AjvDatumValidator, type GuardedFetcherOptions, type HostResolver } from '@werkbank/server';
/** The API statistics' recorder and sketch (issue 19), for suites that merge two processes' counts. */
export { ApiCallRecorder, API_STATS_ACCURACY, DDSketch } from '@werkbank/server';
export {
  apiKeyClient,
  assertError,
  EVENTS,
  expectStatus,
  names,
  sameSession,
  TAGS,
  userUri,
  type Client,
  type Reply,
} from './api-assertions';
export { gdalImage, zippedShapefile, zippedShapefileBytes } from './gdal-fixtures';
export { MapServiceFixture, solidPng, type MapServiceRequest } from './map-service-fixture';
export { startServerProcess } from './server-process';
export { SmtpCatcher, linkOf, addressesOf } from './smtp-catcher';

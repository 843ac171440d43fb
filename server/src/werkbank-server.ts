import { createServer, type Server as HttpServer } from 'node:http';
import { join, resolve } from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import type { i18n } from 'i18next';
import {
  Kernel,
  Registry,
  TranslationRegistry,
  TypeRegistry,
  createI18n,
  type Disposable,
  type PluginEntry,
  type TranslationBundle,
} from '@werkbank/kernel';
import {
  ApiError,
  BlobReferenceContribution,
  BlobStore,
  DatumTypeContribution,
  FunctionContribution,
  HttpRouteContribution,
  NodeTranslationContribution,
  ResourceContribution,
  ResourceExtensionContribution,
  ServiceEndpointContribution,
  StartupHookContribution,
  UrlFetcher,
  WebSocketChannelContribution,
  guard,
  type BlobReferenceSource,
  type FunctionDescriptor,
  type JobQueue,
  type MessageBus,
  type ResourceDefinition,
  type ResourceExtension,
  type RouteDescriptor,
  type ServerConfig,
  type ServiceEndpointDescriptor,
  type StartupHookDescriptor,
  type WebSocketChannelDescriptor,
  type WerkbankState,
} from '@werkbank/sdk/node';
import { openDatabase, type DatabaseHandle } from './db/database';
import { CoreSchema1764000000000 } from './db/core-migration';
import { BlobCandidates1764400000000 } from './db/blob-candidate-migration';
import { Impersonation1764900000000 } from './db/impersonation-migration';
import { ApiStats1765100000000 } from './db/api-stats-migration';
import { AccountTokens1765000000000 } from './db/account-token-migration';
import { errorMiddleware } from './http/error-middleware';
import { refuseNulInAddress } from './http/nul-guard';
import { normalisePathMiddleware } from './http/normalise-path';
import { staticFiles } from './http/static-files';
import { docsPages } from './http/docs-pages';
import { buildOpenApi } from './http/openapi';
import { CORE_OPENAPI_PATHS } from './http/openapi-core-paths';
import { AccountService } from './auth/account-service';
import { authMiddleware } from './auth/auth-middleware';
import { mountAccountRoutes } from './auth/accounts-routes';
import { mountAccountMailRoutes } from './auth/account-mail-routes';
import { AccountMailer } from './auth/account-mailer';
import { randomToken } from './auth/password';
import { LicenceService } from './licence/licence-service';
import { ResourceService } from './resources/resource-service';
import { EventService } from './resources/event-service';
import { mountResource } from './resources/resource-router';
import { basePath } from './resources/field-codec';
import { mountConfigRoute } from './core/config-routes';
import { mountAddonRoutes } from './core/addon-routes';
import { mountImpersonationRoutes } from './core/impersonation-routes';
import { mountApiKeyRoutes } from './core/apikey-routes';
import { accountResources, NAMED_PERMISSIONS } from './core/account-resources';
import { permissionLabel } from './core/permission-labels';
import { mountBackendPage } from './core/backend-page';
import { mountAboutRoute } from './core/about-routes';
import { mountMapImageryRoute } from './map/map-imagery-route';
import { ApiCallRecorder } from './stats/api-call-recorder';
import { apiStatsMiddleware } from './stats/api-stats-middleware';
import { mountApiStatsRoutes } from './stats/api-stats-routes';
import { coreServicesModule, type CoreServices } from './core-services-module';
import { loadNodePlugins } from './plugin-loading';
import { checkClashes, collectEntities, RouteClaims } from './plugin-checks';
import { GuardedFetcher } from './net/guarded-fetcher';
import { FileBlobStore } from './blob/file-blob-store';
import { BlobSweep, holdBlob } from './blob/blob-sweep';
import { AjvDatumValidator } from './types/ajv-datum-validator';
import { WebSocketHub } from './ws/websocket-hub';
import { InlineBus } from './exec/inline-bus';
import { InlineJobQueue } from './exec/inline-job-queue';
import { PgNotifyBus } from './exec/pg-notify-bus';
import { PgBossJobQueue } from './exec/pg-boss-job-queue';
import { TransactionHooks } from './exec/transaction-hooks';
import { PiscinaWorkerPool } from './exec/piscina-worker-pool';
import serverEn from './i18n/en.json' with { type: 'json' };
import serverDe from './i18n/de.json' with { type: 'json' };

export interface WerkbankServerOptions {
  config: ServerConfig;
  /** Plugins to load instead of discovering them (tests). */
  plugins?: PluginEntry[];
  /**
   * Services to use instead of the core ones, by token (tests): bound after the plugins loaded,
   * so they win over the core binding and over a plugin's own rebind.
   */
  services?: Array<[symbol, unknown]>;
  log?: (message: string) => void;
  /** 'worker' for `npm run worker` processes: no HTTP, takes queued jobs. Default 'server'. */
  role?: 'server' | 'worker';
}

/** The Koa/TypeORM host: kernel, database, auth, resource layer, websockets (DESIGN §3). */
export class WerkbankServer {
  readonly kernel: Kernel;
  readonly app = new Koa<WerkbankState>();
  readonly resources = new Registry<ResourceDefinition>('resource');
  readonly extensions = new Registry<ResourceExtension>('resource extension');
  readonly routes = new Registry<RouteDescriptor>('http route');
  readonly translations = new TranslationRegistry();
  readonly types = new TypeRegistry();
  readonly functions = new Registry<FunctionDescriptor>('function');
  readonly endpoints = new Registry<ServiceEndpointDescriptor>('service endpoint');
  readonly startupHooks = new Registry<StartupHookDescriptor>('start-up hook');
  readonly wsChannels = new Registry<WebSocketChannelDescriptor>('websocket channel');
  readonly blobReferences = new Registry<BlobReferenceSource>('blob reference source');
  readonly events = new EventService();
  db!: DatabaseHandle;
  accounts!: AccountService;
  /** Account mail (invitations, password resets) over the configured SMTP server. */
  mailer!: AccountMailer;
  licences!: LicenceService;
  blobs!: FileBlobStore;
  /** Deletes blobs nothing refers to (decision 0017); API servers run it hourly. */
  blobSweep!: BlobSweep;
  resourceService!: ResourceService;
  /** The API call statistics of this process, flushed periodically (issue 19, decision 0044). */
  apiCalls!: ApiCallRecorder;
  i18n!: i18n;
  http?: HttpServer;
  hub?: WebSocketHub;
  /** The admin password when it was generated at this start (printed once). */
  generatedAdminPassword?: string;
  /** InlineBus on the embedded database, PgNotifyBus (LISTEN/NOTIFY) on a PostgreSQL server. */
  bus!: MessageBus & Partial<Disposable & { close(): Promise<void> }>;
  /** InlineJobQueue, or PgBossJobQueue when EXECUTION=workers. */
  jobs!: JobQueue & Partial<Disposable & { close(): Promise<void> }>;
  /** CPU-heavy work in worker threads (WorkerPool). */
  workers?: PiscinaWorkerPool;
  /** The core services, one token each (coreServicesModule). */
  services!: CoreServices;
  private readonly log: (m: string) => void;

  constructor(private readonly options: WerkbankServerOptions) {
    this.log = options.log ?? ((m) => console.log(m));
    this.kernel = new Kernel({ log: this.log });
  }

  get config(): ServerConfig {
    return this.options.config;
  }

  /**
   * Start-up (decision 0024): the plugins' entity sets are collected first (from a scratch load of
   * their modules), the database is opened and migrated, the core services are made and bound, one
   * token each, then the plugins load into the real kernel and their contributions are collected.
   * Nothing is filled in later: every service a contribution can inject exists before it is made.
   */
  async start(): Promise<void> {
    const config = this.options.config;
    if (config.execution === 'workers' && !config.databaseUrl)
      throw new Error(
        'EXECUTION=workers needs a PostgreSQL server: set DATABASE_URL=postgres://... for the server and every worker ' +
          '(the embedded database serves one process), or unset EXECUTION to run node runs in the server.',
      );
    const entries =
      this.options.plugins ??
      (await loadNodePlugins(config.root, { chosen: config.plugins, pluginDirs: config.pluginDirs, examples: config.examples }));
    const entities = collectEntities(entries, this.log);
    const migrations = [
      CoreSchema1764000000000,
      BlobCandidates1764400000000,
      Impersonation1764900000000,
      ApiStats1765100000000,
      AccountTokens1765000000000,
      ...entities.flatMap((e) => e.item.migrations),
    ].sort((a, b) => a.name.replace(/^\D+/, '').localeCompare(b.name.replace(/^\D+/, '')) || a.name.localeCompare(b.name));
    this.db = await openDatabase({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      entities: entities.flatMap((e) => e.item.entities),
      migrations,
      subscribers: [new TransactionHooks(this.log)],
      log: this.log,
    });
    await this.makeServices();
    this.kernel.container.load(coreServicesModule(this.services));
    this.kernel.load(entries);
    for (const [token, value] of this.options.services ?? []) this.kernel.container.rebind(token).toConstantValue(value);
    // The blob store as bound (a test or a plugin may have replaced it) is the one the sweep cleans.
    this.blobSweep = new BlobSweep(this.db.dataSource, this.kernel.container.get(BlobStore), this.blobReferences, this.log);
    // The core's own kinds first, so a plugin that declares one of them is the one refused.
    for (const core of accountResources(() => this.namedPermissions()))
      this.kernel.disposables.push(this.resources.add(core, 'server'));
    this.collectContributions();
    checkClashes({
      entities,
      resources: this.resources,
      namespaced: [
        this.resources,
        this.extensions,
        this.routes,
        this.endpoints,
        this.startupHooks,
        this.wsChannels,
        this.blobReferences,
      ],
    });

    const bundles: TranslationBundle[] = [
      { id: 'server.core', namespace: 'server', de: serverDe, en: serverEn },
      ...this.translations.all(),
    ];
    this.i18n = createI18n(bundles);
    await this.ensureAdmin();
    const dataSource = this.db.dataSource;
    for (const { item, owner } of this.startupHooks.owned()) {
      const started = await this.kernel.timed(`${owner}:${item.id}`, () => item.run({ dataSource, log: this.log }));
      if (started) this.kernel.disposables.push(started);
    }
    if (this.options.role !== 'worker') {
      this.blobSweep.start();
      this.apiCalls.start(config.apiStatsFlushSeconds);
    }
    this.buildApp();
  }

  /** Makes the core services on the open database (bound by coreServicesModule). */
  private async makeServices(): Promise<void> {
    const config = this.options.config;
    const dataSource = this.db.dataSource;
    this.accounts = new AccountService(dataSource, config.sessionMaxAgeHours);
    this.mailer = new AccountMailer(config);
    const memory = config.dataDir.startsWith('memory://');
    this.licences = new LicenceService(dataSource, {
      dir: memory ? undefined : join(config.dataDir, 'licence'),
      trustedKeys: config.licencePublicKeys,
      developmentLicence: config.developmentLicence,
      log: this.log,
    });
    await this.licences.start();
    this.resourceService = new ResourceService(dataSource, this.resources, this.extensions, this.events);
    this.apiCalls = new ApiCallRecorder(dataSource, this.log);
    this.blobs = await FileBlobStore.open(config.dataDir, { hold: (hash) => holdBlob(dataSource.manager, hash) });
    this.bus =
      this.db.kind === 'postgres' ? await PgNotifyBus.open({ url: this.db.url, log: this.log }) : new InlineBus(this.log);
    this.jobs =
      config.execution === 'workers'
        ? await PgBossJobQueue.start({
            url: this.db.url,
            role: this.options.role ?? 'server',
            concurrency: config.executionConcurrency,
            log: this.log,
          })
        : new InlineJobQueue(config.executionConcurrency, this.log);
    this.workers = new PiscinaWorkerPool({ threads: config.workerThreads, timeLimitMs: config.workerTimeLimitSeconds * 1000 });
    const pool = (dataSource.driver as unknown as { master: { query(q: object): Promise<{ rows: unknown[] }> } }).master;
    this.services = {
      config,
      dataSource,
      prepared: {
        query: async <T>(name: string, text: string, values: unknown[]) => (await pool.query({ name, text, values })).rows as T[],
      },
      logger: { log: this.log },
      role: this.options.role ?? 'server',
      translator: {
        translate: (lang, key, params) => this.i18n.getFixedT(lang === 'de' ? 'de' : 'en', 'server')(key, params ?? {}),
      },
      users: { loadUser: (id) => this.accounts.loadAuthUser(id) },
      eventFeed: this.events,
      functions: this.functions,
      types: this.types,
      datumTypes: new AjvDatumValidator(this.types),
      resources: this.resourceService,
      gate: this.licences.gate,
      blobs: this.blobs,
      net: new GuardedFetcher({
        allowPrivate: config.fetchAllowPrivate,
        allowedHosts: config.fetchAllowedHosts,
        maxBytes: config.uploadMaxBytes,
      }),
      bus: this.bus,
      jobs: this.jobs,
      workers: this.workers,
    };
  }

  /** Collects every node-side contribution point into its registry (refusing duplicate ids). */
  private collectContributions(): void {
    const k = this.kernel;
    k.collect(ResourceContribution, this.resources, (c, s) => c.registerResources(s));
    k.collect(ResourceExtensionContribution, this.extensions, (c, s) => c.registerResourceExtensions(s));
    k.collect(HttpRouteContribution, this.routes, (c, s) => c.registerHttpRoutes(s));
    k.collect(NodeTranslationContribution, this.translations, (c, s) => c.registerTranslations(s));
    k.collect(DatumTypeContribution, this.types, (c, s) => c.registerDatumTypes(s));
    k.collect(FunctionContribution, this.functions, (c, s) => c.registerFunctions(s));
    k.collect(ServiceEndpointContribution, this.endpoints, (c, s) => c.registerServiceEndpoints(s));
    k.collect(StartupHookContribution, this.startupHooks, (c, s) => c.registerStartupHooks(s));
    k.collect(WebSocketChannelContribution, this.wsChannels, (c, s) => c.registerWebSocketChannels(s));
    k.collect(BlobReferenceContribution, this.blobReferences, (c, s) => c.registerBlobReferences(s));
  }

  /** First start: a superuser (ADMIN_USERNAME, default admin). ADMIN_PASSWORD sets its password. */
  private async ensureAdmin(): Promise<void> {
    const config = this.options.config;
    const [existing] = (await this.db.dataSource.query(`SELECT id FROM werkbank_user WHERE username = $1`, [
      config.adminUsername,
    ])) as { id: number }[];
    const [{ n }] = (await this.db.dataSource.query(`SELECT count(*)::int AS n FROM werkbank_user`)) as { n: number }[];
    if (!existing && n === 0) {
      const password = config.adminPassword ?? randomToken(12);
      if (!config.adminPassword) this.generatedAdminPassword = password;
      await this.accounts.createUser({
        username: config.adminUsername,
        password,
        is_superuser: true,
        is_staff: true,
        first_name: 'Admin',
      });
    } else if (existing && config.adminPassword) {
      await this.accounts.setPassword(existing.id, config.adminPassword);
    }
  }

  private buildApp(): void {
    const config = this.options.config;
    const app = this.app;
    app.proxy = config.trustProxy;
    // Behind one proxy: the address it saw, not what a client wrote into X-Forwarded-For.
    app.maxIpsCount = 1;
    // Case-sensitive, so a path never matches a route that a check of the same path would miss.
    const router = new Router<WerkbankState>({ sensitive: true });
    // One spelling of each path before the CSRF check and the router both read it (issue 14 item 24).
    app.use(normalisePathMiddleware());
    // Outside the error middleware: a refused or failed call counts with the status it answered.
    app.use(apiStatsMiddleware(this.apiCalls, this.licences.gate));
    app.use(staticFiles(config.distDir, { '/docs/': resolve(config.root, 'docs') + '/' }));
    app.use(docsPages(resolve(config.root, 'docs')));
    app.use(errorMiddleware(this.log));
    // The map fetches base map tiles through fetch/XHR (ImageBitmaps), so their host joins connect-src.
    const tileOrigin = originOf(config.baseMapTileUrl);
    app.use(async (ctx, next) => {
      ctx.state.bodyTimeoutMs = config.bodyTimeoutMs;
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.set('X-Frame-Options', 'SAMEORIGIN');
      ctx.set('Referrer-Policy', 'same-origin');
      // Scripts only from the server itself; map tiles may come from configured https hosts.
      ctx.set(
        'Content-Security-Policy',
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; " +
          `font-src 'self' data:; connect-src 'self' ws: wss:${tileOrigin}; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; frame-ancestors 'self'`,
      );
      await next();
    });
    app.use(authMiddleware(this.accounts, this.i18n, config.secureCookies));
    app.use(refuseNulInAddress());
    const gate = this.licences.gate;
    const dataSource = this.db.dataSource;
    const claims = new RouteClaims();
    const mounted = (owner: string, mount: () => void) => {
      const before = router.stack.length;
      mount();
      claims.add(owner, router.stack.slice(before));
    };
    mounted('server', () => this.mountCoreRoutes(router));
    const resourceOpts = { db: dataSource, service: this.resourceService, gate, bodyLimit: config.bodyLimit };
    // Longer list addresses first, so `/api/v1/a/b/` is not taken for an object of `/api/v1/a/`.
    const defs = [...this.resources.all()].sort((a, b) => basePath(b).length - basePath(a).length);
    for (const def of defs) mounted(this.resources.ownerOf(def.id) ?? 'server', () => mountResource(router, def, resourceOpts));
    for (const { item, owner } of this.routes.owned()) mounted(owner, () => item.mount(router));
    for (const { item, owner } of this.endpoints.owned()) mounted(owner, () => item.mount(router));
    app.use(async (ctx, next) => {
      await next();
      if (ctx.status === 404 && ctx.body === undefined && /^\/api\//.test(ctx.path)) throw ApiError.notFound();
    });
    app.use(router.routes());
    app.on('error', (err: NodeJS.ErrnoException) => {
      // A browser that goes away while a file streams is not an error of ours.
      if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'EPIPE' || err.code === 'ECONNRESET') return;
      this.log(`HTTP error: ${err.stack ?? err.message}`);
    });
  }

  /** The host's own routes: configuration, accounts, add-ons, API keys, permissions, the API document. */
  private mountCoreRoutes(router: Router<WerkbankState>): void {
    const config = this.options.config;
    const gate = this.licences.gate;
    const dataSource = this.db.dataSource;
    mountConfigRoute(router, this.licences, this.kernel.plugins, config, this.mailer);
    mountAccountRoutes(router, this.accounts, dataSource, { secureCookies: config.secureCookies, bodyLimit: config.bodyLimit });
    mountAccountMailRoutes(router, {
      db: dataSource,
      config,
      mailer: this.mailer,
      events: this.events,
      i18n: this.i18n,
      log: this.log,
    });
    mountAddonRoutes(router, dataSource, this.licences, this.kernel.plugins, config.bodyLimit);
    mountApiKeyRoutes(router, dataSource, this.accounts, gate, () => this.realms(), config.bodyLimit);
    mountImpersonationRoutes(router, dataSource, this.accounts, this.events, { secureCookies: config.secureCookies });
    mountApiStatsRoutes(router, dataSource, gate, this.resourceService, this.apiCalls);
    mountAboutRoute(router, this.licences, this.kernel.plugins, config);
    mountMapImageryRoute(router, this.kernel.container.get<UrlFetcher>(UrlFetcher), gate);
    mountBackendPage(router, this);
    router.get('/api/v2/backend/permissions', (ctx) => {
      guard(ctx, gate, undefined, 'user');
      const names = this.namedPermissions();
      ctx.body = {
        objects: names.map((name) => ({ name, label: permissionLabel(this.i18n, this.resources.all(), name, ctx.state.lang) })),
        meta: { offset: 0, limit: names.length, total_count: names.length },
      };
    });
    router.get('/api/openapi.json', (ctx) => {
      const fromRoutes = Object.assign({}, ...this.routes.all().map((r) => r.openapi ?? {}));
      ctx.body = buildOpenApi(this.resources.all(), { ...CORE_OPENAPI_PATHS, ...fromRoutes });
    });
  }

  /** Named permissions that may be granted to users and groups: the spec's and every kind's object permissions. */
  namedPermissions(): string[] {
    const fromKinds = this.resources
      .all()
      .flatMap((r) => Object.values(r.objectPermissions ?? {}).filter((p): p is string => !!p));
    return [...new Set([...NAMED_PERMISSIONS, ...fromKinds])].sort();
  }

  /** Every API key realm: the resource kinds' realms plus the fixed ones. */
  realms(): string[] {
    return [
      ...new Set([
        'addon',
        'analytics',
        'apikey',
        ...this.resources.all().map((r) => r.realm ?? r.kind),
        ...this.routes.all().flatMap((r) => r.realms ?? []),
      ]),
    ].sort();
  }

  callback() {
    return this.app.callback();
  }

  /** Listens on `port` (0 picks a free one); attaches the websocket channels. */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    // Uploads of several GB take longer than Node's default requestTimeout (300 s) for the whole
    // request, so it is off. headersTimeout must then be given (Node would derive 0 from it) and
    // still bounds slow headers at 60 s; a body that stalls is cut by readMultipartUpload's idle
    // timeout; other bodies by size (BODY_LIMIT) and by time (BODY_TIMEOUT_SECONDS, readText).
    this.http = createServer({ requestTimeout: 0, headersTimeout: 60_000 }, this.app.callback());
    this.hub = new WebSocketHub(this.accounts, this.options.config.allowedOrigins, this.log);
    for (const c of this.wsChannels.all()) this.hub.addChannel(c);
    this.hub.attach(this.http);
    await new Promise<void>((res, rej) => {
      this.http!.once('error', rej);
      this.http!.listen(port, host, () => res());
    });
    const addr = this.http.address();
    return typeof addr === 'object' && addr ? addr.port : port;
  }

  /** Graceful stop: no new connections, in-flight requests finish, websockets and database close. */
  async close(): Promise<void> {
    this.hub?.dispose();
    if (this.http) {
      const server = this.http;
      await new Promise<void>((res) => {
        server.close(() => res());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5000).unref();
      });
    }
    // What this process counted since the last flush, while the database is still open.
    await this.apiCalls?.stop().catch((e: Error) => this.log(`API statistics flush failed: ${e.message}`));
    this.events.dispose();
    this.mailer?.close();
    this.licences?.dispose();
    // No new jobs are taken; running handlers get a few seconds while plugins and database still work.
    await (this.jobs?.close ? this.jobs.close() : this.jobs?.dispose?.());
    await this.blobSweep?.stop();
    await this.workers?.close();
    // Plugins' background work (runs, timers) stops while the database is still open.
    this.kernel.dispose();
    await (this.bus?.close ? this.bus.close() : this.bus?.dispose?.());
    await this.db?.close();
    await this.blobs?.close();
  }
}

/** ` https://host:port` of a z/x/y tile address (placeholders allowed), or '' when there is none. */
function originOf(address: string | null): string {
  if (!address) return '';
  try {
    const url = new URL(address.replace(/\{[a-z]+\}/gi, '0'));
    return url.protocol === 'https:' || url.protocol === 'http:' ? ` ${url.origin}` : '';
  } catch {
    return '';
  }
}

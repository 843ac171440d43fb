import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';

/** Everything configurable, read from the environment (README "Configuration"). */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminUsername: string;
  adminPassword?: string;
  /** Plugin ids to load (WERKBANK_PLUGINS); undefined loads every workspace plugin. */
  plugins?: string[];
  /** Extra trusted licence public keys (PEM text), from LICENCE_PUBLIC_KEYS (file paths). */
  licencePublicKeys: string[];
  /** Create a development licence on first start (default on; DEV_LICENCE=0 turns it off). */
  developmentLicence: boolean;
  bodyLimit: number;
  /** Milliseconds a JSON or form body may take to arrive before 408 `body_timeout` (BODY_TIMEOUT_SECONDS, default 30). */
  bodyTimeoutMs: number;
  /** Largest accepted upload file in bytes (UPLOAD_MAX_BYTES, default 5 GiB). */
  uploadMaxBytes: number;
  secureCookies: boolean;
  /**
   * Let functions fetch URLs on loopback, private and link-local networks (FETCH_ALLOW_PRIVATE=1;
   * default off: such addresses are refused, as they reach the server's own services).
   */
  fetchAllowPrivate: boolean;
  /** Host names, addresses and CIDR ranges that may be fetched although private (FETCH_ALLOWED_HOSTS). */
  fetchAllowedHosts: string[];
  /**
   * Folders on the server from which superusers may import local files into switchboards
   * (file.import), FILE_IMPORT_ROOTS as absolute paths; none (the default) turns local imports off.
   */
  fileImportRoots: string[];
  /**
   * Fewest seconds between two requests of a REST live dataset, whatever its update_interval says
   * (LIVE_REST_MIN_INTERVAL, default 30): each poll may fetch up to 64 MiB and start a run.
   */
  liveRestMinInterval: number;
  /** Hours after login at which a session ends (SESSION_MAX_AGE_HOURS, default 14 days). */
  sessionMaxAgeHours: number;
  /** Take client addresses from X-Forwarded-For (behind a reverse proxy). */
  trustProxy: boolean;
  /** Origins allowed to open websockets besides the server's own. */
  allowedOrigins: string[];
  defaultBaseLayer: string | null;
  baseMapTileUrl: string | null;
  sourceProjection: string;
  layerTypes: Record<string, string>;
  documentation: Record<string, { manual: string; tutorials: string }>;
  /**
   * Viewer address templates (spec 000 §2 "Viewer addresses come from configured templates"), by
   * kind (layer, view, portal, finalview, switchboard), with `{id}` or `{slug}` substituted:
   * VIEWER_URL_<KIND>, e.g. VIEWER_URL_SWITCHBOARD=https://viewer.example/preview/{id}.
   */
  viewerUrls: Record<string, string>;
  /**
   * Where node runs execute (EXECUTION): 'inline' in the server process (default), or 'workers':
   * queued with pg-boss on the PostgreSQL server and taken by `npm run worker` processes.
   */
  execution: 'inline' | 'workers';
  /** Node runs executed at the same time per process (EXECUTION_CONCURRENCY, default 4). */
  executionConcurrency: number;
  /** Seconds without a heartbeat after which a worker counts as dead (WORKER_TIMEOUT_SECONDS, default 30). */
  workerTimeoutSeconds: number;
  /** Folder of the built browser bundle. */
  distDir: string;
  root: string;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, root = resolve(import.meta.dirname, '../..')): ServerConfig {
  const list = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(root, env.DATA_DIR ?? 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    adminUsername: env.ADMIN_USERNAME || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    plugins: list(env.WERKBANK_PLUGINS).length ? list(env.WERKBANK_PLUGINS) : undefined,
    licencePublicKeys: list(env.LICENCE_PUBLIC_KEYS).map((f) => readFileSync(resolve(root, f), 'utf8')),
    developmentLicence: env.DEV_LICENCE !== '0',
    bodyLimit: Number(env.BODY_LIMIT ?? 1024 * 1024),
    bodyTimeoutMs: Number(env.BODY_TIMEOUT_SECONDS) > 0 ? Number(env.BODY_TIMEOUT_SECONDS) * 1000 : 30_000,
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES) > 0 ? Number(env.UPLOAD_MAX_BYTES) : 5 * 1024 ** 3,
    secureCookies: env.SECURE_COOKIES === '1',
    fetchAllowPrivate: env.FETCH_ALLOW_PRIVATE === '1',
    fetchAllowedHosts: list(env.FETCH_ALLOWED_HOSTS),
    liveRestMinInterval: Number(env.LIVE_REST_MIN_INTERVAL) > 0 ? Number(env.LIVE_REST_MIN_INTERVAL) : 30,
    fileImportRoots: list(env.FILE_IMPORT_ROOTS).map((p) => resolve(root, p)),
    trustProxy: env.TRUST_PROXY === '1',
    sessionMaxAgeHours: Number(env.SESSION_MAX_AGE_HOURS) > 0 ? Number(env.SESSION_MAX_AGE_HOURS) : 24 * 14,
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    defaultBaseLayer: env.DEFAULT_BASE_LAYER || null,
    baseMapTileUrl: env.BASE_MAP_TILE_URL || null,
    sourceProjection: env.SOURCE_PROJECTION || 'EPSG:25832',
    layerTypes: {
      feature: 'Feature',
      wfs: 'WFS',
      mapproxy: 'MapProxy',
      external_feature: 'External feature',
      external_map: 'External map',
      pmtiles: 'PMTiles',
      metalayer: 'Metalayer',
    },
    viewerUrls: Object.fromEntries(
      ['layer', 'view', 'portal', 'finalview', 'switchboard']
        .map((k) => [k, env[`VIEWER_URL_${k.toUpperCase()}`] ?? ''])
        .filter(([, v]) => v),
    ),
    documentation: {
      de: { manual: '/docs/de/manual.md', tutorials: '/docs/de/tutorials.md' },
      en: { manual: '/docs/en/manual.md', tutorials: '/docs/en/tutorials.md' },
    },
    execution: env.EXECUTION === 'workers' ? 'workers' : 'inline',
    executionConcurrency: Number(env.EXECUTION_CONCURRENCY) > 0 ? Math.floor(Number(env.EXECUTION_CONCURRENCY)) : 4,
    workerTimeoutSeconds: Number(env.WORKER_TIMEOUT_SECONDS) > 0 ? Number(env.WORKER_TIMEOUT_SECONDS) : 30,
    distDir: resolve(root, 'dist'),
    root,
  };
}

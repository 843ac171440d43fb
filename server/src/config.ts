import { resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import type { ServerConfig } from '@werkbank/sdk/node';

/** Where a layer's services answer (decision 0060); `{name}` is its short name or id. */
export const DEFAULT_SERVICE_URLS: Record<string, string> = {
  geojson: '/services/geojson/{name}/',
  ogcapi: '/services/ogc/{name}/',
  wfs: '/services/wfs/{name}?SERVICE=WFS&REQUEST=GetCapabilities',
  wms: '/services/wms/{name}?SERVICE=WMS&REQUEST=GetCapabilities',
  wmts_kvp: '/services/wmts/{name}?SERVICE=WMTS&REQUEST=GetCapabilities',
  wmts_rest: '/services/wmts/{name}/1.0.0/WMTSCapabilities.xml',
};

/** The viewer's own addresses (decision 0088); `{slug}` falls back to the id when a view has no short name. */
export const DEFAULT_VIEWER_URLS: Record<string, string> = {
  view: '/viewer/{slug}/',
  finalview: '/finalview/{slug}/',
  // The viewer in switchboard mode: the canvas's preview frame (decision 0090).
  switchboard: '/viewer/switchboard/{id}/',
};

/**
 * Addresses of the analytics calls the browser reads from the configuration (spec 002 §7, decision
 * 0089); `{id}` is a view's id. The views plugin answers the default.
 */
export const DEFAULT_ANALYTICS_URLS: Record<string, string> = {
  visitors_for_view: '/api/v2/analytics/views/{id}/visitors',
};

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
    pluginDirs: list(env.WERKBANK_PLUGIN_DIRS).map((p) => resolve(root, p)),
    examples: env.WERKBANK_EXAMPLES === '1',
    licencePublicKeys: list(env.LICENCE_PUBLIC_KEYS).map((f) => readFileSync(resolve(root, f), 'utf8')),
    developmentLicence: env.DEV_LICENCE !== '0',
    bodyLimit: Number(env.BODY_LIMIT ?? 1024 * 1024),
    bodyTimeoutMs: Number(env.BODY_TIMEOUT_SECONDS) > 0 ? Number(env.BODY_TIMEOUT_SECONDS) * 1000 : 30_000,
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES) > 0 ? Number(env.UPLOAD_MAX_BYTES) : 5 * 1024 ** 3,
    outputMaxBytes: Number(env.OUTPUT_MAX_BYTES) > 0 ? Number(env.OUTPUT_MAX_BYTES) : 100 * 1024 ** 2,
    secureCookies: env.SECURE_COOKIES === '1',
    fetchAllowPrivate: env.FETCH_ALLOW_PRIVATE === '1',
    fetchAllowedHosts: list(env.FETCH_ALLOWED_HOSTS),
    liveRestMinInterval: Number(env.LIVE_REST_MIN_INTERVAL) > 0 ? Number(env.LIVE_REST_MIN_INTERVAL) : 30,
    fileImportRoots: list(env.FILE_IMPORT_ROOTS).map((p) => resolve(root, p)),
    trustProxy: env.TRUST_PROXY === '1',
    apiStatsFlushSeconds: Number(env.API_STATS_FLUSH_SECONDS) > 0 ? Number(env.API_STATS_FLUSH_SECONDS) : 60,
    ...smtpFromEnv(env),
    invitationValidHours: Number(env.INVITATION_VALID_HOURS) > 0 ? Number(env.INVITATION_VALID_HOURS) : 24 * 7,
    passwordResetValidHours: Number(env.PASSWORD_RESET_VALID_HOURS) > 0 ? Number(env.PASSWORD_RESET_VALID_HOURS) : 2,
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
        .map((k) => [k, env[`VIEWER_URL_${k.toUpperCase()}`] ?? DEFAULT_VIEWER_URLS[k] ?? ''])
        .filter(([, v]) => v),
    ),
    analyticsUrls: Object.fromEntries(
      Object.entries(DEFAULT_ANALYTICS_URLS).map(([k, v]) => [k, env[`ANALYTICS_URL_${k.toUpperCase()}`] || v]),
    ),
    serviceUrls: Object.fromEntries(
      Object.entries(DEFAULT_SERVICE_URLS).map(([k, v]) => [k, env[`SERVICE_URL_${k.toUpperCase()}`] || v]),
    ),
    documentation: {
      de: { manual: '/docs/de/manual.md', tutorials: '/docs/de/tutorials.md' },
      en: { manual: '/docs/en/manual.md', tutorials: '/docs/en/tutorials.md' },
    },
    execution: env.EXECUTION === 'workers' ? 'workers' : 'inline',
    executionConcurrency: Number(env.EXECUTION_CONCURRENCY) > 0 ? Math.floor(Number(env.EXECUTION_CONCURRENCY)) : 4,
    workerTimeoutSeconds: Number(env.WORKER_TIMEOUT_SECONDS) > 0 ? Number(env.WORKER_TIMEOUT_SECONDS) : 30,
    workerThreads: Number(env.WORKER_THREADS) > 0 ? Math.floor(Number(env.WORKER_THREADS)) : undefined,
    workerTimeLimitSeconds: Number(env.WORKER_TIME_LIMIT_SECONDS) > 0 ? Number(env.WORKER_TIME_LIMIT_SECONDS) : 600,
    distDir: resolve(root, 'dist'),
    root,
  };
}

/** SMTP_* , MAIL_FROM and PUBLIC_URL (ServerConfig.smtp, decision 0041); nothing without SMTP_HOST. */
function smtpFromEnv(env: NodeJS.ProcessEnv): Pick<ServerConfig, 'smtp' | 'mailFrom' | 'publicUrl'> {
  const tls = env.SMTP_TLS === 'implicit' || env.SMTP_TLS === 'none' ? env.SMTP_TLS : 'starttls';
  const host = env.SMTP_HOST?.trim();
  return {
    smtp: host
      ? {
          host,
          port: Number(env.SMTP_PORT) > 0 ? Number(env.SMTP_PORT) : tls === 'implicit' ? 465 : 587,
          tls,
          user: env.SMTP_USER || undefined,
          password: env.SMTP_PASSWORD || undefined,
        }
      : undefined,
    mailFrom: env.MAIL_FROM?.trim() || undefined,
    publicUrl: env.PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined,
  };
}

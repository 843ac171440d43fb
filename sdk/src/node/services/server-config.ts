import { token } from '@werkbank/kernel';

/**
 * The server's configuration, read from the environment at start (README "Configuration"). Plugins
 * read it through the ServerConfig token and never change it.
 */
export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminUsername: string;
  adminPassword?: string;
  /** Plugin ids to load (WERKBANK_PLUGINS); undefined loads every workspace plugin. */
  plugins?: string[];
  /** Folders holding plugin packages installed outside the Werkbank (WERKBANK_PLUGIN_DIRS). */
  pluginDirs: string[];
  /** Load the example plugins without naming them (WERKBANK_EXAMPLES=1; default off). */
  examples: boolean;
  /** Extra trusted licence public keys (PEM text), from LICENCE_PUBLIC_KEYS (file paths). */
  licencePublicKeys: string[];
  /** Create a development licence on first start (default on; DEV_LICENCE=0 turns it off). */
  developmentLicence: boolean;
  bodyLimit: number;
  /** Milliseconds a JSON or form body may take to arrive before 408 `body_timeout` (BODY_TIMEOUT_SECONDS, default 30). */
  bodyTimeoutMs: number;
  /** Largest accepted upload file in bytes (UPLOAD_MAX_BYTES, default 5 GiB). */
  uploadMaxBytes: number;
  /**
   * Largest output of one node run in bytes of canonical JSON (OUTPUT_MAX_BYTES, default 100 MiB);
   * a run whose output is larger fails with `output_too_large`.
   */
  outputMaxBytes: number;
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
  /**
   * Seconds between two flushes of a server process's API call statistics to the database
   * (API_STATS_FLUSH_SECONDS, default 60); they are flushed on shutdown and before they are read too.
   */
  apiStatsFlushSeconds: number;
  /** Hours after login at which a session ends (SESSION_MAX_AGE_HOURS, default 14 days). */
  sessionMaxAgeHours: number;
  /**
   * The SMTP server for account mail (invitations, password resets; decision 0041): SMTP_HOST,
   * SMTP_PORT (default 587, or 465 with implicit TLS), SMTP_TLS (`starttls` required by default,
   * `implicit`, or `none` for a relay on a trusted network), SMTP_USER, SMTP_PASSWORD. Undefined
   * without SMTP_HOST: no account mail is sent and the workbench does not offer it.
   */
  smtp?: { host: string; port: number; tls: 'starttls' | 'implicit' | 'none'; user?: string; password?: string };
  /** The sender of account mail, e.g. `Werkbank <werkbank@example.org>` (MAIL_FROM). */
  mailFrom?: string;
  /**
   * The address users open the Werkbank at, e.g. `https://werkbank.example.org` (PUBLIC_URL): the
   * links in account mail start with it (never with the Host a request claims).
   */
  publicUrl?: string;
  /** Hours an invitation link stays valid (INVITATION_VALID_HOURS, default 168 = 7 days). */
  invitationValidHours: number;
  /** Hours a password-reset link stays valid (PASSWORD_RESET_VALID_HOURS, default 2). */
  passwordResetValidHours: number;
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
   * Addresses of analytics calls by name (spec 002 §7; decision 0089): `visitors_for_view` with
   * `{id}` for a view's id; ANALYTICS_URL_<NAME> overrides a default.
   */
  analyticsUrls: Record<string, string>;
  /**
   * Service address templates of a layer by service (geojson, ogcapi, wfs, wms, wmts_kvp, wmts_rest) with
   * `{name}` for its short name or id (spec 001 §2.2); SERVICE_URL_<SERVICE> overrides a default.
   */
  serviceUrls: Record<string, string>;
  /**
   * Where node runs execute (EXECUTION): 'inline' in the server process (default), or 'workers':
   * queued with pg-boss on the PostgreSQL server and taken by `npm run worker` processes.
   */
  execution: 'inline' | 'workers';
  /** Node runs executed at the same time per process (EXECUTION_CONCURRENCY, default 4). */
  executionConcurrency: number;
  /** Seconds without a heartbeat after which a worker counts as dead (WORKER_TIMEOUT_SECONDS, default 30). */
  workerTimeoutSeconds: number;
  /** Worker threads for CPU-heavy work (WORKER_THREADS; default one less than the cores, at least one). */
  workerThreads?: number;
  /** Longest a task of the worker pool may run (WORKER_TIME_LIMIT_SECONDS, default 600). */
  workerTimeLimitSeconds: number;
  /** Folder of the built browser bundle. */
  distDir: string;
  root: string;
}
export const ServerConfig = token<Readonly<ServerConfig>>('ServerConfig');

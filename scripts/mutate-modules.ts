/**
 * The modules `npm run mutate` measures (issue 20, "Mutation testing as an instrument"): the rules
 * that matter most. Each names the files Stryker mutates and the narrowest spec set that exercises
 * them: unit specs first; API suites (a server per suite, seconds each) only where the module is
 * reached through HTTP alone. Paths are relative to the repository root and are git pathspec globs
 * (`*`, `**`, no braces); a leading `!` leaves files out. docs/mutation-testing.md says how to run
 * and read it; docs/decisions/0082-mutation-testing.md why it is configured this way.
 */
export interface MutationModule {
  name: string;
  /** What the module is, one line (printed by `npm run mutate -- --list`). */
  about: string;
  /** Files Stryker mutates. */
  mutate: string[];
  /** Spec files mocha runs against each mutant. */
  specs: string[];
  /**
   * The databases its API suites run on, one Stryker run each, the results merged (a mutant counts
   * as detected when a run on either database detects it). Default: the embedded one only. A module
   * whose code takes a different path on PostgreSQL (COPY, server-side cursors) names both.
   */
  databases?: Database[];
}

export type Database = 'embedded' | 'postgres';

const within = (dir: string, names: string[]): string[] => names.map((n) => `${dir}/${n}.ts`);

/**
 * Every `.ts` under a plugin's node side (or, with `isDir`, under `plugins/<dir>`), without its
 * specs and test scaffolding.
 */
function nodeSide(plugin: string, isDir = false): string[] {
  const dir = isDir ? `plugins/${plugin}` : `plugins/${plugin}/src/node`;
  return [`${dir}/**/*.ts`, `!${dir}/**/*.spec.ts`, `!${dir}/**/*-test-*.ts`, `!${dir}/**/*.d.ts`];
}

/** API suites of the root `test/api` that test a plugin whose own `test` folder has none. */
const ROOT_SUITES: Record<string, string[]> = {
  // The live feed's socket (/ws/events) is tested by the websocket suite; the feed's fields as the
  // API describes them (read-only, nullable) by the conventions suite's OpenAPI snapshot.
  events: ['test/api/events.spec.ts', 'test/api/licences.spec.ts', 'test/api/websockets.spec.ts', 'test/api/conventions.spec.ts'],
  // The licence suite switches the add-ons off: their lists (and the ?tag= filter) are refused then.
  tags: ['test/api/tags.spec.ts', 'test/api/licences.spec.ts'],
  // The OpenAPI document of their routes and kinds is checked against its snapshot there.
  portals: ['test/api/conventions.spec.ts'],
};

/** The folders of the geodata plugin's node side, each with the API suites of its `test` folder that reach it. */
const GEODATA_PARTS: Record<string, string[]> = {
  'depot-import': ['geodata-depot-import', 'geodata-depot-import-kill'],
  geometry: ['geometry-worker'],
  live: ['geodata-live'],
  reproject: ['feature-crs'],
  services: ['geodata-services'],
  sources: ['geodata-sources'],
  tabular: ['geodata-csv-files', 'key-order'],
  vector: ['geodata-geojson-files', 'geodata-vector-files', 'geodata-file-types', 'gdal-formats'],
};

/**
 * A part of a large plugin node side, measured as a module of its own (`plugin-<plugin>-<part>`):
 * one Stryker run of a whole large node side took longer than a working session, mostly because
 * each mutant of a module constant (descriptors, OpenAPI texts) runs every spec of the module in a
 * fresh process. `files` are paths under the plugin's `src/node` without `.ts` (globs allowed), each
 * with its `.spec.ts` beside it; `suites` the plugin's API suites (`test/<name>.spec.ts`) that
 * reach the part, `more` further spec paths. A part may miss a kill by a suite of another part (its
 * survivors then say so); it never counts a kill that did not happen.
 */
interface PluginPart {
  files: string[];
  suites: string[];
  more?: string[];
}

function pluginParts(plugin: string, parts: Record<string, PluginPart>): MutationModule[] {
  const node = `plugins/${plugin}/src/node`;
  return Object.entries(parts).map(([part, { files, suites, more = [] }]) => ({
    name: `plugin-${plugin}-${part}`,
    about: `the node side of the ${plugin} plugin: ${part}`,
    mutate: [...files.map((f) => `${node}/${f}.ts`), `!${node}/**/*.spec.ts`, `!${node}/**/*.d.ts`, `!${node}/**/*-test-*.ts`],
    specs: [...files.map((f) => `${node}/${f}.spec.ts`), ...suites.map((s) => `plugins/${plugin}/test/${s}.spec.ts`), ...more],
  }));
}

const VIEWS_SUITES = [
  'views-analytics',
  'views-finalviews',
  'views-image',
  'views-resource',
  'views-scenes',
  'views-translations',
];
const VIEWS_MORE = ['plugins/views/src/common/**/*.spec.ts', 'test/api/conventions.spec.ts'];

/** The views plugin's node side in two halves of about 750 lines (1,061 mutants took 2 h and more), each with all its specs. */
export const VIEWS_PARTS: Record<string, PluginPart> = {
  content: {
    files: [
      'view-scene-routes',
      'view-image-routes',
      'view-image-blob-references',
      'view-image-migration',
      'view-analytics-routes',
      'view-visitor-statistics',
      'view-visits-service',
      'view-events-extension',
    ],
    suites: VIEWS_SUITES,
    more: VIEWS_MORE,
  },
  resource: {
    files: [
      'view-resource',
      'finalview-resource',
      'finalview-routes',
      'frozen-views-service',
      'view-translation-routes',
      'views-migration',
      'views-node-module',
      'views-services',
      'view-start-modes',
      'view-rows',
    ],
    suites: VIEWS_SUITES,
    more: VIEWS_MORE,
  },
};

/** The layers plugin's node side (3,400 lines, 14 API suites) by area, each with the suites that reach it. */
export const LAYERS_PARTS: Record<string, PluginPart> = {
  tiles: {
    files: ['layer-tile-routes', 'layer-tiles-service', 'tiles-blob-references', 'tiles-migration', 'tiles/*'],
    suites: ['layers-pmtiles'],
  },
  metadata: {
    files: ['iso19139', 'layer-iso', 'depot-iso', 'metadata-migration', 'metadata-resources', 'metadata-routes'],
    suites: ['layers-metadata', 'layers-typed-metadata'],
  },
  styles: {
    files: [
      'legend-blob-references',
      'legend-migration',
      'legend-png',
      'legend-routes',
      'layer-style-save',
      'layer-style-source',
    ],
    suites: ['layers-legend', 'layers-style', 'layers-style-datum'],
  },
  piles: {
    files: ['pile-store', 'metalayer-cycle-guard', 'metalayer-cycles', 'layer-templates-service', 'layer-template-types'],
    suites: [
      'layers-piles',
      'layers-create-in-pile',
      'layers-pile-switchboard',
      'layers-stacks',
      'layers-datum-cycles',
      'layers-templates',
    ],
  },
  resource: {
    files: [
      'layer-resource',
      'layer-routes',
      'layer-data',
      'layer-reader-service',
      'depot-layers-service',
      'layer-events-extension',
      'layers-migration',
      'layers-node-contributions',
      'layers-node-module',
      'layers-openapi',
      'layers-services',
    ],
    suites: ['layers-resource', 'layers-tabs', 'layers-stacks'],
    more: ['test/api/conventions.spec.ts'],
  },
};

/**
 * The Magazine's node side by area (4,800 lines), without the files the moment-store and
 * moment-bulk modules measure.
 */
export const MAGAZINE_PARTS: Record<string, PluginPart> = {
  datums: {
    files: ['datum-routes', 'datum-codec', 'datum-write', 'datum-write-guards', 'datum-blocks', 'datum-extent-sql', 'bulk-rows'],
    suites: ['magazine-depots', 'magazine-moments', 'magazine-extents', 'magazine-moment-actions'],
    more: ['plugins/magazine/src/node/key-order-text.spec.ts'],
  },
  depots: {
    files: [
      'depot-resource',
      'depot-routes',
      'depotfolder-resource',
      'depot-crs',
      'depot-layer-routes',
      'folder-paths',
      'file-path',
      'magazine-contextview',
    ],
    suites: ['magazine-depots', 'magazine-moments', 'magazine-extents'],
  },
  access: {
    files: ['depot-access-service', 'depot-access', 'staged-import'],
    suites: ['magazine-depot-access', 'magazine-bulk-write', 'magazine-streams', 'magazine-extents'],
  },
  uploads: {
    files: ['upload-routes', 'upload-status', 'uploaded-file', 'interrupted-uploads', 'datum-blob-references'],
    suites: ['magazine-uploads', 'magazine-large-upload', 'magazine-restore-history'],
  },
  module: {
    files: [
      '*-migration',
      'magazine-maintenance',
      'magazine-node-contributions',
      'magazine-node-module',
      'magazine-openapi',
      'magazine-routes',
      'magazine-services',
    ],
    suites: ['magazine-depots', 'magazine-uploads', 'magazine-moments'],
    more: ['test/api/conventions.spec.ts'],
  },
};

/** A plugin's unit specs of its node and common side, and its API suites. */
function pluginSpecs(plugin: string): string[] {
  return [
    `plugins/${plugin}/src/node/**/*.spec.ts`,
    `plugins/${plugin}/src/common/**/*.spec.ts`,
    `plugins/${plugin}/test/*.spec.ts`,
    ...(ROOT_SUITES[plugin] ?? []),
  ];
}

export const MODULES: MutationModule[] = [
  {
    name: 'links',
    about: 'the one-link rule shared by canvas and server (can-link)',
    mutate: ['plugins/switchboards/src/common/can-link.ts'],
    specs: ['plugins/switchboards/src/common/can-link.spec.ts', 'plugins/switchboards/src/browser/canvas/server-types.spec.ts'],
  },
  {
    name: 'recurrence',
    about: 'schedules of switchboards: next run times, time zones, DST',
    mutate: ['plugins/switchboards/src/common/recurrence.ts'],
    specs: ['plugins/switchboards/src/common/recurrence.spec.ts'],
  },
  {
    name: 'guarded-fetcher',
    about: 'outgoing HTTP: blocked addresses, allow list, redirects, size and time limits',
    mutate: ['server/src/net/guarded-fetcher.ts', 'server/src/net/address-policy.ts'],
    specs: ['server/src/net/guarded-fetcher.spec.ts'],
  },
  {
    name: 'csrf',
    about: 'caller resolution and the CSRF check (auth middleware), one spelling per path',
    mutate: ['server/src/auth/auth-middleware.ts', 'server/src/http/normalise-path.ts'],
    specs: [
      'server/src/http/normalise-path.spec.ts',
      'test/api/csrf.spec.ts',
      'test/api/hardening-csrf.spec.ts',
      'test/api/apikeys.spec.ts',
    ],
  },
  {
    name: 'auth',
    about: 'accounts, passwords, account links and mails, API keys, impersonation',
    mutate: [
      ...within('server/src/auth', [
        'account-links',
        'account-service',
        'accounts-routes',
        'account-mail-routes',
        'acting-as',
        'password',
        'hash',
      ]),
      ...within('server/src/core', ['apikey-routes', 'impersonation-routes']),
    ],
    specs: [
      'server/src/auth/password.spec.ts',
      'test/api/accounts.spec.ts',
      'test/api/apikeys.spec.ts',
      'test/api/impersonation.spec.ts',
      'plugins/admin/test/account-mail.spec.ts',
      'plugins/admin/test/account-mail-limits.spec.ts',
      'plugins/admin/test/named-permissions.spec.ts',
    ],
  },
  {
    name: 'resources',
    about: 'the shared resource layer and the permission service',
    mutate: within('server/src/resources', [
      'permission-service',
      'resource-service',
      'resource-router',
      'field-codec',
      'body-decoder',
      'list-cursor',
      'list-order',
      'page-params',
    ]),
    specs: [
      'server/src/resources/list-cursor.spec.ts',
      'server/src/resources/list-order.spec.ts',
      'server/src/resources/field-codec.spec.ts',
      'server/src/resources/body-decoder.spec.ts',
      'test/api/resource-layer.spec.ts',
      'test/api/resource-kinds.spec.ts',
      'test/api/permissions.spec.ts',
      'test/api/permission-matrix.spec.ts',
      'test/api/cursor-paging.spec.ts',
    ],
  },
  {
    name: 'moment-store',
    about: 'the Magazine moment store: moments, restore, reading a depot at a moment',
    mutate: within('plugins/magazine/src/node', ['moment-store', 'moment-routes', 'datum-store']),
    specs: [
      'plugins/magazine/test/magazine-moments.spec.ts',
      'plugins/magazine/test/magazine-moment-actions.spec.ts',
      'plugins/magazine/test/magazine-restore-history.spec.ts',
      'plugins/magazine/test/magazine-moment-paging.spec.ts',
      // The map-window reads (datum-store's inWindow and the window filter of a page).
      'plugins/magazine/test/magazine-extents.spec.ts',
    ],
  },
  {
    // Apart from moment-store: their suites build large depots in their hooks, which every mutant
    // of the moment store would run again (the five suites together took 20 s and more per mutant).
    name: 'moment-bulk',
    about: 'the Magazine bulk writes and whole-depot streams',
    mutate: within('plugins/magazine/src/node', ['moment-filler', 'snapshot-stream', 'snapshot-writers']),
    specs: [
      'plugins/magazine/src/node/snapshot-writers.spec.ts',
      'plugins/magazine/test/magazine-bulk-write.spec.ts',
      'plugins/magazine/test/magazine-streams.spec.ts',
    ],
    // The embedded database stages bulk writes in INSERT statements and reads whole depots by keyset
    // pages; PostgreSQL writes them by COPY and reads them through a server-side cursor.
    databases: ['embedded', 'postgres'],
  },
  {
    name: 'blob',
    about: 'the upload and blob paths: multipart reading, hashing, the blob store, sending blobs, MIME sniffing',
    mutate: ['server/src/blob/*.ts', '!server/src/blob/*.spec.ts', '!server/src/blob/blob-test-support.ts'],
    specs: [
      'server/src/blob/*.spec.ts',
      'test/api/hardening-uploads.spec.ts',
      'test/api/size-limits.spec.ts',
      'test/api/blob-references.spec.ts',
    ],
  },
  ...['basic-functions', 'events', 'portals', 'switchboards', 'tags', 'types'].map((plugin): MutationModule => ({
    name: `plugin-${plugin}`,
    about: `the node side of the ${plugin} plugin`,
    mutate: nodeSide(plugin),
    specs: pluginSpecs(plugin),
  })),
  ...pluginParts('views', VIEWS_PARTS),
  ...pluginParts('layers', LAYERS_PARTS),
  ...pluginParts('magazine', MAGAZINE_PARTS),
  // The two largest node sides (about 10,000 and 8,000 lines) by folder: one module of a few
  // thousand mutants took longer than a working session, so each part is measured on its own.
  ...Object.entries(GEODATA_PARTS).map(([part, suites]): MutationModule => ({
    name: `plugin-geodata-${part}`,
    about: `the node side of the geodata plugin: ${part}`,
    mutate: nodeSide(`geodata/src/node/${part}`, true),
    specs: [`plugins/geodata/src/node/${part}/**/*.spec.ts`, ...suites.map((s) => `plugins/geodata/test/${s}.spec.ts`)],
  })),
  {
    name: 'plugin-geodata-shared',
    about: 'the node side of the geodata plugin: module, services, source items and failures',
    mutate: ['plugins/geodata/src/node/*.ts', '!plugins/geodata/src/node/*.spec.ts', '!plugins/geodata/src/node/*-test-*.ts'],
    specs: ['plugins/geodata/src/node/*.spec.ts', 'plugins/geodata/test/geodata-pipeline.spec.ts'],
  },
  {
    name: 'plugin-services',
    about: 'the node side of the services plugin: OGC API Features, WFS, vector tiles, publication',
    mutate: [...nodeSide('services'), '!plugins/services/src/node/wms/**', '!plugins/services/src/node/wmts/**'],
    specs: [
      'plugins/services/src/node/*.spec.ts',
      'plugins/services/src/common/**/*.spec.ts',
      'plugins/services/test/*.spec.ts',
      '!plugins/services/test/services-wm*.spec.ts',
    ],
  },
  {
    name: 'plugin-services-wms',
    about: 'the node side of the services plugin: WMS and WMTS',
    mutate: [...nodeSide('services/src/node/wms', true), ...nodeSide('services/src/node/wmts', true)],
    specs: [
      'plugins/services/src/node/wms/*.spec.ts',
      'plugins/services/src/node/wmts/*.spec.ts',
      'plugins/services/test/services-wm*.spec.ts',
      'plugins/services/test/services-metalayer.spec.ts',
    ],
  },
];

export function findModule(name: string): MutationModule | undefined {
  return MODULES.find((m) => m.name === name);
}

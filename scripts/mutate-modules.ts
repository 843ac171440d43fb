/**
 * The modules `npm run mutate` measures (issue 20, "Mutation testing as an instrument"): the rules
 * that matter most. Each names the files Stryker mutates and the narrowest spec set that exercises
 * them: unit specs first; API suites (a server per suite, seconds each) only where the module is
 * reached through HTTP alone. Paths are relative to the repository root and are git pathspec globs
 * (`*`, `**`, no braces); a leading `!` leaves files out. docs/mutation-testing.md says how to run
 * and read it; docs/decisions/0082-mutation-testing.md why it is configured this way.
 */
import { LAYERS_PARTS, MAGAZINE_PARTS, pluginParts, SERVICES_PARTS, SWITCHBOARDS_PARTS, VIEWS_PARTS } from './mutate-parts';

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
  ...['basic-functions', 'events', 'portals', 'tags', 'types'].map((plugin): MutationModule => ({
    name: `plugin-${plugin}`,
    about: `the node side of the ${plugin} plugin`,
    mutate: nodeSide(plugin),
    specs: pluginSpecs(plugin),
  })),
  ...pluginParts('views', VIEWS_PARTS),
  ...pluginParts('layers', LAYERS_PARTS),
  ...pluginParts('magazine', MAGAZINE_PARTS),
  ...pluginParts('switchboards', SWITCHBOARDS_PARTS),
  // The geodata node side (about 10,000 lines) by folder: one module of a few thousand mutants
  // took longer than a working session, so each part is measured on its own (the other large
  // node sides are in parts through scripts/mutate-parts.ts).
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
  ...pluginParts('services', SERVICES_PARTS),
];

export function findModule(name: string): MutationModule | undefined {
  return MODULES.find((m) => m.name === name);
}

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
}

const within = (dir: string, names: string[]): string[] => names.map((n) => `${dir}/${n}.ts`);

/** Every `.ts` under a plugin's node side, without its specs and test scaffolding. */
function nodeSide(plugin: string): string[] {
  const dir = `plugins/${plugin}/src/node`;
  return [`${dir}/**/*.ts`, `!${dir}/**/*.spec.ts`, `!${dir}/**/*-test-*.ts`, `!${dir}/**/*.d.ts`];
}

/** API suites of the root `test/api` that test a plugin whose own `test` folder has none. */
const ROOT_SUITES: Record<string, string[]> = {
  events: ['test/api/events.spec.ts', 'test/api/licences.spec.ts'],
  // The licence suite switches the add-ons off: their lists (and the ?tag= filter) are refused then.
  tags: ['test/api/tags.spec.ts', 'test/api/licences.spec.ts'],
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
    ],
  },
  {
    // Apart from moment-store: their suites build large depots in their hooks, which every mutant
    // of the moment store would run again (the five suites together took 20 s and more per mutant).
    name: 'moment-bulk',
    about: 'the Magazine bulk writes and whole-depot streams',
    mutate: within('plugins/magazine/src/node', ['moment-filler', 'snapshot-stream', 'snapshot-writers']),
    specs: ['plugins/magazine/test/magazine-bulk-write.spec.ts', 'plugins/magazine/test/magazine-streams.spec.ts'],
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
  ...['basic-functions', 'events', 'geodata', 'layers', 'magazine', 'switchboards', 'tags', 'types'].map(
    (plugin): MutationModule => ({
      name: `plugin-${plugin}`,
      about: `the node side of the ${plugin} plugin`,
      mutate: nodeSide(plugin),
      specs: pluginSpecs(plugin),
    }),
  ),
];

export function findModule(name: string): MutationModule | undefined {
  return MODULES.find((m) => m.name === name);
}

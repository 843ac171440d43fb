import {
  definePlugin,
  EntityContribution,
  ResourceContribution,
  type EntityDescriptor,
  type MigrationInterface,
  type PluginEntry,
  type QueryRunner,
  type RegistrySink,
  type ResourceDefinition,
} from '@werkbank/sdk/node';

/**
 * A probe plugin for resource-kinds.spec.ts: one kind per option of a ResourceDefinition that the
 * shipped plugins use rarely or together (published objects, superuser-only, read-only, owned
 * without object permissions, neither owned nor guarded, no feed entries, hooks, actions,
 * related objects, own list parameters).
 */
export const NOTES = '/api/v1/probenote/';
export const SECRETS = '/api/v1/probesecret/';
export const LOGS = '/api/v1/probelog/';
export const MEMOS = '/api/v1/probememo/';
export const BOARDS = '/api/v1/probeboard/';

class ProbeTables1764999999000 implements MigrationInterface {
  name = 'ProbeTables1764999999000';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE probe_note (
      id serial PRIMARY KEY, name varchar(100) NOT NULL, public boolean NOT NULL DEFAULT false,
      zoom double precision NOT NULL DEFAULT 1, size integer NOT NULL DEFAULT 0, pin text NOT NULL DEFAULT '',
      due timestamptz NULL,
      owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL)`);
    await q.query(`CREATE TABLE probe_board (id serial PRIMARY KEY, title varchar(100) NOT NULL)`);
    await q.query(`CREATE TABLE probe_secret (id serial PRIMARY KEY, name varchar(100) NOT NULL)`);
    await q.query(`CREATE TABLE probe_log (id serial PRIMARY KEY, line text NOT NULL)`);
    await q.query(`INSERT INTO probe_log (line) VALUES ('started'), ('stopped')`);
    await q.query(`CREATE TABLE probe_memo (
      id serial PRIMARY KEY, text varchar(100) NULL, owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL)`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE probe_note, probe_board, probe_secret, probe_log, probe_memo`);
  }
}

/** Owned, with object permissions including execute, published by a column; actions and related objects. */
const note: ResourceDefinition = {
  id: 'probe.note',
  kind: 'probenote',
  table: 'probe_note',
  ownerColumn: 'owner_id',
  publicColumn: 'public',
  objectPermissions: { read: 'read_probenote', write: 'write_probenote', execute: 'run_probenote' },
  taggable: true,
  queryParams: { longer: (qb, value) => void qb.andWhere('length(t.name) > :longer', { longer: Number(value) }) },
  fields: {
    name: { type: 'string', required: true, maxLength: 100, search: true, order: true },
    public: { type: 'bool', default: false, filter: true },
    zoom: { type: 'number', default: 1, viewState: true },
    size: { type: 'int', default: 0, search: true },
    pin: { type: 'string', default: '', hidden: true },
    due: { type: 'datetime', nullable: true, order: true },
  },
  hooks: {
    checkWrite: (row) => (row.name === 'frozen' ? 'errors.permission_denied' : undefined),
  },
  actions: [
    { name: 'peek', method: 'GET', detail: true, needs: 'read', handler: async ({ row }) => ({ name: row!.name }) },
    { name: 'touch', method: 'POST', detail: true, needs: 'write', handler: async () => undefined },
    { name: 'run', method: 'POST', detail: true, needs: 'execute', handler: async ({ body }) => ({ ran: true, body }) },
    { name: 'tally', method: 'GET', detail: false, handler: async ({ query }) => ({ query }) },
  ],
  contextview: async (row) => ({
    relations: [
      { from: `${NOTES}${row.id}/`, to: `${SECRETS}1/` },
      { from: `${NOTES}${row.id}/`, to: `${LOGS}1/` },
    ],
    objects: [
      { type: 'probesecret', resource_uri: `${SECRETS}1/` },
      { type: 'probelog', resource_uri: `${LOGS}1/` },
      { type: 'nokind', resource_uri: '/api/v1/nokind/1/' },
    ],
  }),
};

/** Neither owned nor guarded by object permissions: every signed-in user may change it; private ones are for superusers. */
const board: ResourceDefinition = {
  id: 'probe.board',
  kind: 'probeboard',
  table: 'probe_board',
  fields: { title: { type: 'string', required: true, search: true } },
  readFilter: (qb) => void qb.andWhere(`t.title NOT LIKE 'private%'`),
};

/** Superusers only. */
const secret: ResourceDefinition = {
  id: 'probe.secret',
  kind: 'probesecret',
  table: 'probe_secret',
  superuserOnly: true,
  fields: { name: { type: 'string', required: true, order: true } },
};

/** Read-only through the generic calls; its own realm. */
const log: ResourceDefinition = {
  id: 'probe.log',
  kind: 'probelog',
  realm: 'probe-logs',
  table: 'probe_log',
  readOnly: true,
  fields: { line: { type: 'text', readOnly: true } },
};

/** Owned without object permissions, no feed entries, created by superusers only. */
const memo: ResourceDefinition = {
  id: 'probe.memo',
  kind: 'probememo',
  table: 'probe_memo',
  ownerColumn: 'owner_id',
  events: false,
  fields: { text: { type: 'string', nullable: true } },
  hooks: { canCreate: (req) => req.user.isSuperuser },
};

export const probe: PluginEntry = {
  manifest: { id: 'probe' },
  module: definePlugin((ctx) => {
    ctx.contribute(EntityContribution, {
      registerEntities: (r: RegistrySink<EntityDescriptor>) =>
        void r.add({ id: 'probe.entities', entities: [], migrations: [ProbeTables1764999999000] }),
    });
    ctx.contribute(ResourceContribution, {
      registerResources: (r: RegistrySink<ResourceDefinition>) => {
        for (const def of [note, board, secret, log, memo]) r.add(def);
      },
    });
  }),
};

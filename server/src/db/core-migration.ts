import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The server's own tables: accounts, sessions, API keys, object permissions, events, favourites. */
export class CoreSchema1764000000000 implements MigrationInterface {
  name = 'CoreSchema1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE werkbank_user (
        id serial PRIMARY KEY,
        username varchar(150) NOT NULL UNIQUE,
        first_name varchar(150) NOT NULL DEFAULT '',
        last_name varchar(150) NOT NULL DEFAULT '',
        email varchar(254) NOT NULL DEFAULT '',
        notes text NOT NULL DEFAULT '',
        password text NOT NULL DEFAULT '',
        is_active boolean NOT NULL DEFAULT true,
        is_staff boolean NOT NULL DEFAULT false,
        is_superuser boolean NOT NULL DEFAULT false,
        max_concurrent_sessions integer NULL,
        expiration_date timestamptz NULL,
        language varchar(8) NULL,
        date_joined timestamptz NOT NULL DEFAULT now(),
        last_login timestamptz NULL
      )`);
    await q.query(`CREATE TABLE werkbank_group (id serial PRIMARY KEY, name varchar(150) NOT NULL UNIQUE)`);
    await q.query(`
      CREATE TABLE werkbank_user_group (
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        group_id integer NOT NULL REFERENCES werkbank_group(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, group_id)
      )`);
    await q.query(`
      CREATE TABLE werkbank_user_permission (
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        permission varchar(100) NOT NULL,
        PRIMARY KEY (user_id, permission)
      )`);
    await q.query(`
      CREATE TABLE werkbank_group_permission (
        group_id integer NOT NULL REFERENCES werkbank_group(id) ON DELETE CASCADE,
        permission varchar(100) NOT NULL,
        PRIMARY KEY (group_id, permission)
      )`);
    await q.query(`
      CREATE TABLE werkbank_session (
        id serial PRIMARY KEY,
        key_hash char(64) NOT NULL UNIQUE,
        csrf_token varchar(64) NOT NULL,
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        is_active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        closed_at timestamptz NULL,
        ip_address varchar(64) NOT NULL DEFAULT '',
        user_agent text NOT NULL DEFAULT ''
      )`);
    await q.query(`CREATE INDEX werkbank_session_user ON werkbank_session (user_id) WHERE is_active`);
    await q.query(`
      CREATE TABLE werkbank_apikey (
        id serial PRIMARY KEY,
        key_prefix varchar(16) NOT NULL UNIQUE,
        key_hash char(64) NOT NULL,
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        realms jsonb NOT NULL DEFAULT '[]',
        created timestamptz NOT NULL DEFAULT now(),
        expiration timestamptz NULL
      )`);
    await q.query(`
      CREATE TABLE werkbank_object_permission (
        id serial PRIMARY KEY,
        kind varchar(64) NOT NULL,
        object_id integer NOT NULL,
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        group_id integer NULL REFERENCES werkbank_group(id) ON DELETE CASCADE,
        permission varchar(100) NOT NULL,
        CHECK ((user_id IS NULL) <> (group_id IS NULL))
      )`);
    await q.query(`CREATE INDEX werkbank_object_permission_obj ON werkbank_object_permission (kind, object_id)`);
    await q.query(`
      CREATE TABLE werkbank_event (
        id bigserial PRIMARY KEY,
        key varchar(16) NOT NULL,
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        kind varchar(64) NOT NULL,
        object_id integer NULL,
        object_uri text NULL,
        object_repr text NOT NULL DEFAULT '',
        object_owner_id integer NULL,
        metadata jsonb NOT NULL DEFAULT '{}',
        created timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX werkbank_event_created ON werkbank_event (id DESC)`);
    await q.query(`CREATE INDEX werkbank_event_obj ON werkbank_event (kind, object_id)`);
    await q.query(`CREATE INDEX werkbank_event_created_at ON werkbank_event (created)`);
    await q.query(`
      CREATE TABLE werkbank_favorite (
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        kind varchar(64) NOT NULL,
        object_id integer NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, kind, object_id)
      )`);
    await q.query(`
      CREATE TABLE werkbank_login_attempt (
        id bigserial PRIMARY KEY,
        username varchar(150) NOT NULL,
        ip_address varchar(64) NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX werkbank_login_attempt_lookup ON werkbank_login_attempt (username, ip_address, created)`);
    await q.query(`
      CREATE TABLE werkbank_addon_interest (
        id serial PRIMARY KEY,
        addon varchar(100) NOT NULL,
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE werkbank_licence (
        id serial PRIMARY KEY,
        document jsonb NOT NULL,
        installed_by integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        installed timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'werkbank_licence',
      'werkbank_addon_interest',
      'werkbank_login_attempt',
      'werkbank_favorite',
      'werkbank_event',
      'werkbank_object_permission',
      'werkbank_apikey',
      'werkbank_session',
      'werkbank_group_permission',
      'werkbank_user_permission',
      'werkbank_user_group',
      'werkbank_group',
      'werkbank_user',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}

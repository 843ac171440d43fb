import type { MigrationInterface, QueryRunner } from '@werkbank/sdk/node';

/**
 * Switchboards (folders, switchboards, nodes, frames, links, notes), the content store of frames,
 * executions with their node runs, workflows and favourite functions (decision 0014).
 */
export class SwitchboardsSchema1764300000000 implements MigrationInterface {
  name = 'SwitchboardsSchema1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE switchboard_folder (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE switchboard (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        folder_id integer NULL REFERENCES switchboard_folder(id) ON DELETE SET NULL,
        status varchar(16) NOT NULL DEFAULT 'initialized',
        progress double precision NOT NULL DEFAULT 0,
        ui_offset_x double precision NOT NULL DEFAULT 0,
        ui_offset_y double precision NOT NULL DEFAULT 0,
        ui_zoom double precision NOT NULL DEFAULT 1,
        automatic boolean NOT NULL DEFAULT false,
        periodic_execution boolean NOT NULL DEFAULT false,
        periodic_execution_rule text NOT NULL DEFAULT '',
        next_run timestamptz NULL,
        scheduled_by integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        execution_id integer NULL,
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX switchboard_folder_idx ON switchboard (folder_id)`);
    await q.query(`CREATE INDEX switchboard_next_run ON switchboard (next_run) WHERE periodic_execution`);
    await q.query(`
      CREATE TABLE switchboard_node (
        id serial PRIMARY KEY,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        func varchar(200) NOT NULL,
        status varchar(16) NOT NULL DEFAULT 'initialized',
        status_changed timestamptz NOT NULL DEFAULT now(),
        outdated boolean NOT NULL DEFAULT false,
        ports jsonb NOT NULL DEFAULT '[]',
        ui_x double precision NOT NULL DEFAULT 0,
        ui_y double precision NOT NULL DEFAULT 0,
        ui_collapsed boolean NOT NULL DEFAULT false,
        progress double precision NOT NULL DEFAULT 0,
        run_count integer NOT NULL DEFAULT 0,
        exception text NOT NULL DEFAULT '',
        last_run_id integer NULL
      )`);
    await q.query(`CREATE INDEX switchboard_node_sb ON switchboard_node (switchboard_id)`);
    await q.query(`
      CREATE TABLE switchboard_content (
        hash char(64) PRIMARY KEY,
        items jsonb NOT NULL,
        size integer NOT NULL,
        created timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE switchboard_frame (
        id serial PRIMARY KEY,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        content_type varchar(100) NOT NULL,
        storage_context jsonb NULL,
        dynamic_storage_context boolean NOT NULL DEFAULT false,
        frame_type smallint NOT NULL DEFAULT 0 CHECK (frame_type IN (0, 1, 2)),
        name varchar(200) NOT NULL DEFAULT '',
        description text NOT NULL DEFAULT '',
        content_hash char(64) NULL REFERENCES switchboard_content(hash),
        size integer NOT NULL DEFAULT 0,
        text_repr text NOT NULL DEFAULT '',
        content_visible boolean NOT NULL DEFAULT false,
        content_edit boolean NOT NULL DEFAULT false,
        ui_docked boolean NOT NULL DEFAULT false,
        ui_x double precision NOT NULL DEFAULT 0,
        ui_y double precision NOT NULL DEFAULT 0,
        outdated boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX switchboard_frame_sb ON switchboard_frame (switchboard_id)`);
    await q.query(`
      CREATE TABLE switchboard_link (
        id serial PRIMARY KEY,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        node_id integer NOT NULL REFERENCES switchboard_node(id) ON DELETE CASCADE,
        frame_id integer NOT NULL REFERENCES switchboard_frame(id) ON DELETE CASCADE,
        name varchar(100) NOT NULL,
        is_input boolean NOT NULL,
        list_index integer NULL,
        dict_key varchar(200) NULL
      )`);
    await q.query(`CREATE INDEX switchboard_link_sb ON switchboard_link (switchboard_id)`);
    await q.query(`CREATE INDEX switchboard_link_frame ON switchboard_link (frame_id)`);
    await q.query(`CREATE INDEX switchboard_link_node ON switchboard_link (node_id)`);
    // One link per input slot: a new link to a taken slot replaces the old one.
    await q.query(`
      CREATE UNIQUE INDEX switchboard_link_input_slot ON switchboard_link
        (node_id, name, coalesce(list_index, -1), coalesce(dict_key, '')) WHERE is_input`);
    await q.query(`
      CREATE TABLE switchboard_note (
        id serial PRIMARY KEY,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        text text NOT NULL DEFAULT '',
        ui_x double precision NOT NULL DEFAULT 0,
        ui_y double precision NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX switchboard_note_sb ON switchboard_note (switchboard_id)`);
    await q.query(`
      CREATE TABLE switchboard_execution (
        id serial PRIMARY KEY,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        status varchar(16) NOT NULL DEFAULT 'started',
        trigger varchar(16) NOT NULL DEFAULT 'manual',
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        start timestamptz NOT NULL DEFAULT now(),
        "end" timestamptz NULL,
        total integer NOT NULL DEFAULT 0,
        done integer NOT NULL DEFAULT 0,
        failed integer NOT NULL DEFAULT 0,
        skipped integer NOT NULL DEFAULT 0,
        from_node_id integer NULL,
        force boolean NOT NULL DEFAULT false,
        workflow_id integer NULL,
        inputs jsonb NULL,
        message text NOT NULL DEFAULT ''
      )`);
    await q.query(`CREATE INDEX switchboard_execution_sb ON switchboard_execution (switchboard_id, id DESC)`);
    await q.query(`
      CREATE TABLE switchboard_noderun (
        id serial PRIMARY KEY,
        node_id integer NOT NULL REFERENCES switchboard_node(id) ON DELETE CASCADE,
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        execution_id integer NULL REFERENCES switchboard_execution(id) ON DELETE CASCADE,
        status varchar(16) NOT NULL DEFAULT 'waiting',
        start timestamptz NULL,
        "end" timestamptz NULL,
        user_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        stacktrace text NOT NULL DEFAULT '',
        exception text NOT NULL DEFAULT '',
        func varchar(200) NOT NULL,
        func_version varchar(50) NOT NULL DEFAULT '1',
        run_key char(64) NULL,
        parameters jsonb NULL,
        inputs jsonb NULL,
        outputs jsonb NULL,
        moments_read jsonb NOT NULL DEFAULT '[]',
        moments_written jsonb NOT NULL DEFAULT '[]',
        skipped boolean NOT NULL DEFAULT false,
        pending_deps integer NOT NULL DEFAULT 0,
        downstream jsonb NOT NULL DEFAULT '[]',
        replay_of integer NULL,
        worker varchar(100) NULL,
        heartbeat timestamptz NULL,
        attempt integer NOT NULL DEFAULT 0,
        log text NOT NULL DEFAULT '',
        progress double precision NOT NULL DEFAULT 0
      )`);
    await q.query(`CREATE INDEX switchboard_noderun_node ON switchboard_noderun (node_id, id DESC)`);
    await q.query(`CREATE INDEX switchboard_noderun_exec ON switchboard_noderun (execution_id, node_id)`);
    await q.query(`CREATE INDEX switchboard_noderun_started ON switchboard_noderun (heartbeat) WHERE status = 'started'`);
    // Lineage lookups (automatic runs, contextview): which runs read or wrote a depot.
    await q.query(`CREATE INDEX switchboard_noderun_read ON switchboard_noderun USING gin (moments_read jsonb_path_ops)`);
    await q.query(`CREATE INDEX switchboard_noderun_written ON switchboard_noderun USING gin (moments_written jsonb_path_ops)`);
    await q.query(`
      CREATE TABLE switchboard_workflow (
        id serial PRIMARY KEY,
        name varchar(200) NOT NULL,
        description text NOT NULL DEFAULT '',
        image text NOT NULL DEFAULT '',
        slug varchar(100) NULL UNIQUE,
        switchboard_id integer NULL REFERENCES switchboard(id) ON DELETE SET NULL,
        executor varchar(32) NOT NULL DEFAULT 'default',
        owner_id integer NULL REFERENCES werkbank_user(id) ON DELETE SET NULL,
        created timestamptz NOT NULL DEFAULT now(),
        modified timestamptz NOT NULL DEFAULT now()
      )`);
    // Each approved moment starts an automatic switchboard once, however many servers hear of it.
    await q.query(`
      CREATE TABLE switchboard_trigger (
        switchboard_id integer NOT NULL REFERENCES switchboard(id) ON DELETE CASCADE,
        moment_id integer NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (switchboard_id, moment_id)
      )`);
    await q.query(`
      CREATE TABLE switchboard_function_favorite (
        user_id integer NOT NULL REFERENCES werkbank_user(id) ON DELETE CASCADE,
        func varchar(200) NOT NULL,
        PRIMARY KEY (user_id, func)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'switchboard_function_favorite',
      'switchboard_trigger',
      'switchboard_workflow',
      'switchboard_noderun',
      'switchboard_execution',
      'switchboard_note',
      'switchboard_link',
      'switchboard_frame',
      'switchboard_content',
      'switchboard_node',
      'switchboard',
      'switchboard_folder',
    ])
      await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}

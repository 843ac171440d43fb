/**
 * The engine's per-run statements. A run costs two round trips: claim (with everything the run
 * needs, input contents included), and finish — one statement, so it is atomic without a
 * transaction (bench/README.md "Switchboard engine").
 */

/**
 * Claims a waiting run for this process ($2) and marks its node started; returns the run with the
 * node's ports, its links (with the frames' current hashes and types, and the items of input
 * frames) and the node's last successful run. Returns nothing when the run is no longer waiting (taken, aborted, swept).
 */
export const CLAIM_SQL = `
  WITH claimed AS (
    UPDATE switchboard_noderun
       SET status = 'started', start = now(), worker = $2, heartbeat = now(), attempt = attempt + 1
     WHERE id = $1 AND status = 'waiting'
 RETURNING *),
  node AS (
    UPDATE switchboard_node n SET status = 'started', status_changed = now(), progress = 0
      FROM claimed c WHERE n.id = c.node_id
 RETURNING n.id, n.ports)
  SELECT c.*, node.ports,
         (SELECT jsonb_build_object('run_key', p.run_key, 'outputs', p.outputs)
            FROM switchboard_noderun p
           WHERE p.node_id = c.node_id AND p.status = 'success'
           ORDER BY p.id DESC LIMIT 1) AS prev,
         (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'name', l.name, 'is_input', l.is_input, 'list_index', l.list_index, 'dict_key', l.dict_key,
                   'frame_id', f.id, 'hash', f.content_hash, 'type', f.content_type, 'items', ct.items,
                   'key_order', ct.key_order) ORDER BY l.id), '[]'::jsonb)
            FROM switchboard_link l JOIN switchboard_frame f ON f.id = l.frame_id
            LEFT JOIN switchboard_content ct ON l.is_input AND ct.hash = f.content_hash
           WHERE l.node_id = c.node_id) AS links
    FROM claimed c JOIN node ON node.id = c.node_id`;

/**
 * Finishes a successful (or skipped) run that this process ($2) executes: stores the output
 * contents ($11) and points the output frames at them ($12), records the run, marks the node
 * successful, releases the downstream runs ($13: node ids) — those left waiting for nothing are
 * returned as `ready` and were given to this process ($14, in-process mode) — and counts the run in
 * its execution, which ends (with the switchboard) when it was the last one; records the files the
 * run stored for the output frames they landed in ($15, decision 0018). Does nothing when the
 * run is no longer this process's (aborted or swept meanwhile).
 */
export const FINISH_SQL = `
  WITH mine AS (
    UPDATE switchboard_noderun
       SET status = 'success', "end" = now(), run_key = $3, inputs = $4, parameters = $5, outputs = $6,
           moments_read = $7, moments_written = $8, log = $9, skipped = $10, progress = 100,
           start = coalesce(start, now())
     WHERE id = $1 AND status = 'started' AND worker = $2
 RETURNING id, node_id, execution_id, switchboard_id),
  content AS (
    INSERT INTO switchboard_content (hash, items, size, key_order)
    SELECT x.hash, x.items, x.size, x.key_order
      FROM jsonb_to_recordset($11::jsonb) AS x(hash text, items jsonb, size int, key_order jsonb)
     WHERE EXISTS (SELECT 1 FROM mine)
    ON CONFLICT (hash) DO NOTHING
 RETURNING hash),
  frames AS (
    UPDATE switchboard_frame f
       SET content_hash = x.hash, size = x.size, text_repr = x.text_repr, outdated = false
      FROM jsonb_to_recordset($12::jsonb) AS x(frame_id int, hash text, size int, text_repr text), mine
     WHERE f.id = x.frame_id
 RETURNING f.id),
  frame_files AS (
    INSERT INTO switchboard_frame_file (frame_id, hash, mime_type, size)
    SELECT x.frame_id, x.hash, x.mime_type, x.size
      FROM jsonb_to_recordset($15::jsonb) AS x(frame_id int, hash varchar, mime_type varchar, size bigint), mine
    ON CONFLICT (frame_id, hash) DO NOTHING
 RETURNING frame_id),
  node AS (
    UPDATE switchboard_node n
       SET status = 'success', status_changed = now(), progress = 100, exception = '',
           run_count = n.run_count + 1, last_run_id = mine.id, outdated = false
      FROM mine WHERE n.id = mine.node_id
 RETURNING n.run_count),
  released AS (
    UPDATE switchboard_noderun r
       SET pending_deps = r.pending_deps - 1,
           worker = CASE WHEN r.pending_deps = 1 AND $14::text IS NOT NULL THEN $14::text ELSE r.worker END,
           heartbeat = CASE WHEN r.pending_deps = 1 AND $14::text IS NOT NULL THEN now() ELSE r.heartbeat END
      FROM mine
     WHERE r.execution_id = mine.execution_id AND r.node_id = ANY($13::int[]) AND r.status = 'waiting'
 RETURNING r.id, r.pending_deps),
  exec AS (
    UPDATE switchboard_execution e
       SET done = e.done + 1, skipped = e.skipped + (CASE WHEN $10 THEN 1 ELSE 0 END),
           status = CASE WHEN e.done + 1 >= e.total THEN (CASE WHEN e.failed > 0 THEN 'failure' ELSE 'success' END) ELSE e.status END,
           "end" = CASE WHEN e.done + 1 >= e.total THEN now() ELSE e."end" END
      FROM mine WHERE e.id = mine.execution_id AND e.status = 'started'
 RETURNING e.id, e.done, e.total, e.status),
  sb AS (
    UPDATE switchboard s
       SET progress = round(x.done * 1000.0 / greatest(x.total, 1)) / 10,
           status = CASE WHEN x.status = 'started' THEN s.status ELSE x.status END
      FROM exec x, mine
     WHERE s.id = mine.switchboard_id AND s.execution_id = x.id
 RETURNING s.id, s.progress, s.status)
  SELECT (SELECT count(*)::int FROM mine) AS mine,
         (SELECT coalesce(jsonb_agg(id), '[]'::jsonb) FROM released WHERE pending_deps = 0) AS ready,
         (SELECT run_count FROM node) AS run_count,
         (SELECT count(*)::int FROM frames) AS frames,
         (SELECT count(*)::int FROM content) AS stored,
         (SELECT count(*)::int FROM frame_files) AS files,
         (SELECT row_to_json(sb) FROM sb) AS switchboard`;

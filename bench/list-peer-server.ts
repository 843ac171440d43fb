import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { decodeCursor, encodeCursor } from '../server/src/resources/list-cursor';

export interface ListPeerOptions {
  /** The database Werkbank uses (`server.db.url`). */
  connectionString: string;
  /** Werkbank's own pool size, so both sides may run as many queries at once. */
  poolSize: number;
  /** The signed-in user whose favourites the answer marks (the benchmark's session user). */
  userId: number;
}

export interface ListPeer {
  url: string;
  close(): Promise<void>;
}

export const TAGS_PATH = '/api/v2/backend/tags/';
/** The tag list's order as its cursors name it (defaultOrder `name`, the id as tie-breaker). */
const ORDER = 'name,id';

// The SQL Werkbank's resource layer sends for a superuser listing tags (ResourceService.list and
// serialize, the tag resource's serialize hook), as its query builder writes it.
const COLUMNS = `"t"."id" AS "id", t."name" AS "name", t."color" AS "color", t."icon" AS "icon", t."intent" AS "intent", t."created_by" AS "created_by", t."created" AS "created"`;
const FAVOURITES = `SELECT object_id FROM werkbank_favorite WHERE user_id = $1 AND kind = $2 AND object_id = ANY($3)`;
// As the tag serialize hook asks a superuser's counts: per taggable kind (here only greeting), over objects that exist.
const COUNTS = `SELECT "ta"."tag_id" AS "tag_id", 'greeting' AS kind, count(*)::int AS "n" FROM "werkbank_tag_assignment" "ta"
  INNER JOIN "hello_greeting" "o" ON "o"."id" = "ta"."object_id" WHERE "ta"."kind" = 'greeting' AND "ta"."tag_id" = ANY($1) GROUP BY "ta"."tag_id"`;

interface TagRow {
  id: number;
  name: string;
  color: string;
  icon: string;
  intent: string;
  created_by: number | null;
  created: Date;
}

class BadRequest extends Error {}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new BadRequest(`${name} must be an integer`);
  return Math.min(Math.max(Number(raw), min), max);
}

/** The tag list, answered like Werkbank's (same queries, same order, same JSON), without the framework. */
async function listTags(pool: pg.Pool, query: URLSearchParams, userId: number) {
  const offset = intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = intParam(query, 'limit', 20, 1, 1000);
  const withCount = query.get('count') !== 'false';
  const q = query.get('q')?.trim();
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (q) {
    params.push(`%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    conditions.push(`(t."name"::text ILIKE $${params.length} ESCAPE '\\')`);
  }
  const where = () => (conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '');
  const total = withCount
    ? ((await pool.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "werkbank_tag" "t"${where()}`, params)).rows[0]?.n ?? 0)
    : null;
  // Behind a cursor: the keyset condition the resource layer writes for `name` (NOT NULL), then id.
  const token = query.get('after');
  if (token) {
    const cursor = decodeCursor(token);
    if (cursor.order !== ORDER || cursor.values.length !== 2) throw new BadRequest('invalid cursor');
    params.push(cursor.values[0], cursor.values[1]);
    const [name, id] = [`$${params.length - 1}`, `$${params.length}`];
    conditions.push(`(t."name" >= ${name} AND (t."name" > ${name} OR t.id > ${id}))`);
  }
  // The same two steps as ResourceService.list: the page of ids (one more, and the order values
  // as text for the next cursor), then those rows.
  const page = await pool.query<{ id: number; ck0: string; ck1: string }>(
    `SELECT "t"."id" AS "id", t."name"::text AS "ck0", t.id::text AS "ck1" FROM "werkbank_tag" "t"${where()} ` +
      `ORDER BY t."name" ASC NULLS LAST, t.id ASC LIMIT ${limit + 1}${offset ? ` OFFSET ${offset}` : ''}`,
    params,
  );
  const more = page.rows.length > limit;
  const pageRows = page.rows.slice(0, limit);
  const pageIds = pageRows.map((r) => r.id);
  const found = pageIds.length
    ? (await pool.query<TagRow>(`SELECT ${COLUMNS} FROM "werkbank_tag" "t" WHERE "t"."id" = ANY($1)`, [pageIds])).rows
    : [];
  const byId = new Map(found.map((r) => [r.id, r]));
  const rows = pageIds.map((id) => byId.get(id)).filter((r): r is TagRow => !!r);
  const objects = rows.map((r) => ({
    id: r.id,
    resource_uri: `${TAGS_PATH}${r.id}/`,
    name: r.name,
    color: r.color,
    icon: r.icon,
    intent: r.intent,
    user: r.created_by === null ? null : `/api/v1/user/${r.created_by}/`,
    created: r.created.toISOString(),
    favored: false,
    // A superuser may change every tag but a system tag (the tag resource's checkWrite).
    access: r.intent === 'system' ? ['read'] : ['read', 'write'],
    counts: {} as Record<string, number>,
  }));
  if (rows.length) {
    const ids = rows.map((r) => r.id);
    const favs = await pool.query<{ object_id: number }>(FAVOURITES, [userId, 'tag', ids]);
    const favSet = new Set(favs.rows.map((f) => f.object_id));
    const counts = await pool.query<{ tag_id: number; kind: string; n: number }>(COUNTS, [ids]);
    for (const o of objects) {
      o.favored = favSet.has(o.id);
      for (const c of counts.rows) if (c.tag_id === o.id) o.counts[c.kind] = c.n;
    }
  }
  let next: string | null = null;
  if (more) {
    const last = pageRows[pageRows.length - 1];
    const rest = new URLSearchParams();
    for (const [k, v] of query) if (k !== 'offset' && k !== 'after') rest.set(k, v);
    rest.set('after', encodeCursor({ order: ORDER, values: [last.ck0, last.ck1] }));
    next = `${TAGS_PATH}?${rest.toString()}`;
  }
  return { objects, meta: { offset: token ? null : offset, limit, total_count: total, next } };
}

/**
 * A minimal node:http + pg handler for GET /api/v2/backend/tags/ on the same database: the
 * reference Werkbank's list endpoint is measured against. No session, no CSRF, no routing.
 */
export async function startListPeer(options: ListPeerOptions): Promise<ListPeer> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize });
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== TAGS_PATH) return reply(res, 404, { detail: 'not found' });
    listTags(pool, url.searchParams, options.userId).then(
      (body) => reply(res, 200, body),
      (err: Error) => reply(res, err instanceof BadRequest ? 400 : 500, { detail: err.message }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await pool.end();
    },
  };
}

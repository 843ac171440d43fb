import assert from 'node:assert/strict';
import type { DataSource } from 'typeorm';
import type { ResourceDefinition } from '@werkbank/sdk/node';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { assertError, createGreeting, expectStatus, GREETINGS, TAGS, type Client } from './api-test-support';

interface Page {
  objects: Array<{ id: number }>;
  meta: { offset: number | null; limit: number; total_count: number | null; next?: string | null };
}

/** Tables whose rows the suite leaves as they are (signing in must keep working). */
const UNTOUCHED = new Set(['werkbank_user', 'werkbank_session']);

function listPath(def: ResourceDefinition): string {
  return def.path ?? `/api/v1/${def.kind}/`;
}

async function columnsOf(db: DataSource, table: string) {
  return (await db.query(
    `SELECT column_name, is_nullable, data_type FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  )) as { column_name: string; is_nullable: 'YES' | 'NO'; data_type: string }[];
}

/** One statement; false when the database refuses it (a unique or check constraint). */
async function attempt(db: DataSource, text: string, params: unknown[] = []): Promise<boolean> {
  try {
    await db.query(text, params);
    return true;
  } catch {
    return false;
  }
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Gives every kind's table rows with ties and nulls in its order columns, whatever the kind: copies
 * of its rows (exact copies tie on every column; where a unique index refuses them, copies with
 * changed text), then nulls in every nullable order column and ties made by copying one row's
 * value into others. The database refuses what its constraints forbid; that is skipped.
 */
async function giveTiesAndNulls(db: DataSource, def: ResourceDefinition): Promise<void> {
  const table = quote(def.table);
  const columns = await columnsOf(db, def.table);
  const copied = columns.filter((c) => c.column_name !== 'id').map((c) => c.column_name);
  const list = copied.map(quote).join(', ');
  const changed = columns
    .filter((c) => c.column_name !== 'id')
    .map((c) =>
      ['text', 'character varying'].includes(c.data_type)
        ? `CASE WHEN ${quote(c.column_name)} IS NULL THEN NULL ELSE left(${quote(c.column_name)}, 20) || ' ~' || (random() * 1e6)::int END`
        : quote(c.column_name),
    )
    .join(', ');
  for (let round = 0; round < 2; round++) {
    const [{ n }] = (await db.query(`SELECT count(*)::int AS n FROM ${table}`)) as { n: number }[];
    if (!n || n >= 12) break;
    const some = `FROM ${table} ORDER BY id LIMIT 4`;
    if (!(await attempt(db, `INSERT INTO ${table} (${list}) SELECT ${list} ${some}`)))
      await attempt(db, `INSERT INTO ${table} (${list}) SELECT ${changed} ${some}`);
  }
  const nullable = new Set(columns.filter((c) => c.is_nullable === 'YES').map((c) => c.column_name));
  for (const [i, [name, spec]] of Object.entries(def.fields).entries()) {
    if (!spec.order || spec.virtual) continue;
    const col = quote(spec.column ?? name);
    if (nullable.has(spec.column ?? name)) await attempt(db, `UPDATE ${table} SET ${col} = NULL WHERE id % 3 = $1`, [i % 3]);
    await attempt(
      db,
      `UPDATE ${table} SET ${col} = (SELECT ${col} FROM ${table} WHERE ${col} IS NOT NULL ORDER BY id DESC LIMIT 1)
        WHERE id % 4 = $1`,
      [(i + 1) % 4],
    );
  }
}

/** Every object of a list, page after page by offset. */
async function byOffset(c: Client, path: string, order: string, limit: number): Promise<number[]> {
  const ids: number[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = expectStatus<Page>(await c.get(`${path}?order_by=${order}&limit=${limit}&offset=${offset}`), 200);
    ids.push(...page.objects.map((o) => o.id));
    if (offset + limit >= page.meta.total_count!) return ids;
  }
}

/** Every object of a list, page after page by the cursor in `meta.next`, without counts after the first. */
async function byCursor(c: Client, path: string, order: string, limit: number): Promise<{ ids: number[]; total: number }> {
  const first = expectStatus<Page>(await c.get(`${path}?order_by=${order}&limit=${limit}`), 200);
  const ids = first.objects.map((o) => o.id);
  let next = first.meta.next;
  for (let pages = 1; next; pages++) {
    assert.ok(pages < 1000, 'the cursor walk ends');
    const page = expectStatus<Page>(await c.get(next.includes('count=false') ? next : `${next}&count=false`), 200);
    assert.equal(page.meta.total_count, null, 'count=false skips the count');
    assert.equal(page.meta.offset, null, 'a page behind a cursor has no offset');
    assert.ok(page.objects.length > 0, 'a next address never leads to an empty page');
    ids.push(...page.objects.map((o) => o.id));
    next = page.meta.next;
  }
  return { ids, total: first.meta.total_count! };
}

/**
 * Cursor paging (issue 15 item 4, decision 0080), generated from the registered kinds: every list
 * of the resource layer, every declared order field ascending and descending, with ties and nulls
 * in the data, pages by cursor to exactly what offset paging gives. On the embedded database and,
 * with DATABASE_URL, on PostgreSQL.
 */
describe('cursor paging of every list', function () {
  this.timeout(600_000);
  let t: TestServer;
  let admin: Client;
  let db: DataSource;
  let defs: ResourceDefinition[];

  before(async () => {
    t = await startTestServer({ examples: true });
    admin = await t.admin();
    db = t.server.db.dataSource;
    // Some objects made through the API, so kinds without rows at the start have some to copy.
    for (let i = 0; i < 5; i++) {
      await t.user();
      expectStatus(await admin.post(TAGS, { name: `cursor tag ${i}`, color: i % 2 ? '#112233' : '#445566' }), 201);
      await createGreeting(admin, { name: i % 2 ? 'same name' : `greeting ${i}` });
    }
    expectStatus(await admin.post('/api/v1/group/', { name: 'cursor group' }), 201);
    // Users who never signed in (no last_login).
    for (let i = 0; i < 3; i++) {
      expectStatus(await admin.post('/api/v1/user/', { username: `never${i}` }), 201);
    }
    for (let i = 0; i < 3; i++) {
      const name = `object ${i % 2}`;
      for (const [path, extra] of [
        ['/api/v1/depotfolder/', {}],
        ['/api/v1/depot/', { content_type: i % 2 ? 'feature' : 'string' }],
        ['/api/v1/switchboardfolder/', {}],
        ['/api/v1/switchboard/', {}],
        ['/api/v1/workflow/', {}],
        ['/api/v1/layer/', {}],
        ['/api/v1/view/', {}],
        ['/api/v1/portal/', {}],
      ] as const) {
        expectStatus(await admin.post(path, { name, ...extra }), 201);
      }
      const view = expectStatus(await admin.post('/api/v1/view/', { name: `frozen ${i % 2}` }), 201);
      expectStatus(await admin.post('/switchboard/create-finalview/', { slug: `cursor_${i}`, view: view.resource_uri }), 200);
      const group = expectStatus(await admin.post('/api/v1/metadatagroup/', { name }), 201);
      expectStatus(await admin.post('/api/v1/metadataattributetype/', { display_name: name, group: group.resource_uri }), 201);
    }
    defs = t.server.resources.all();
    for (const def of defs) if (!UNTOUCHED.has(def.table)) await giveTiesAndNulls(db, def);
  });
  after(async () => t?.close());

  it('pages every order field of every kind by cursor exactly as by offset, nulls and ties included', async () => {
    const checked: string[] = [];
    let withNulls = 0;
    let withTies = 0;
    const nullableWithoutNulls: string[] = [];
    const empty: string[] = [];
    for (const def of defs) {
      const path = listPath(def);
      const probe = await admin.get(`${path}?limit=1`);
      assert.equal(probe.status, 200, `${def.kind}: ${JSON.stringify(probe.body)}`);
      const total = (probe.body as Page).meta.total_count!;
      const limit = Math.max(2, Math.ceil(total / 12));
      const fields = Object.entries(def.fields).filter(([, s]) => s.order && !s.virtual);
      if (total < 4 && fields.length) empty.push(def.kind);
      for (const name of ['id', ...fields.map(([n]) => n)]) {
        if (name !== 'id') {
          const spec = def.fields[name];
          const col = quote(spec.column ?? name);
          const [stats] = (await db.query(
            `SELECT count(*) FILTER (WHERE ${col} IS NULL)::int AS nulls, (count(${col}) - count(DISTINCT ${col}))::int AS ties
               FROM ${quote(def.table)}`,
          )) as { nulls: number; ties: number }[];
          if (stats.nulls > 0) withNulls++;
          else if (
            total &&
            (await columnsOf(db, def.table)).some((c) => c.column_name === (spec.column ?? name) && c.is_nullable === 'YES')
          )
            nullableWithoutNulls.push(`${def.kind}.${name}`);
          if (stats.ties > 0) withTies++;
        }
        for (const order of [name, `-${name}`]) {
          const offset = await byOffset(admin, path, order, limit);
          const cursor = await byCursor(admin, path, order, limit);
          const where = `${def.kind} ordered by ${order} (${total} objects, pages of ${limit})`;
          assert.deepEqual(cursor.ids, offset, where);
          assert.equal(new Set(cursor.ids).size, cursor.ids.length, `${where}: no object twice`);
          assert.equal(cursor.ids.length, cursor.total, `${where}: every object once`);
          checked.push(`${def.kind}:${order}`);
        }
      }
    }
    assert.ok(defs.length >= 15, `every plugin's kinds are listed (${defs.length})`);
    assert.deepEqual(nullableWithoutNulls, [], 'every nullable order column holds nulls');
    assert.deepEqual(empty, [], 'every kind with order fields has objects to page');
    assert.ok(withNulls >= 3, `order fields holding nulls: ${withNulls}`);
    assert.ok(withTies >= 10, `order fields holding ties: ${withTies}`);
    assert.ok(checked.length >= 60, `orders checked: ${checked.length}`);
  });

  it('pages an order of several fields, mixed directions, by cursor as by offset', async () => {
    const def = defs.find((d) => d.kind === 'tag')!;
    const order = 'intent,-created,name';
    const offset = await byOffset(admin, TAGS, order, 2);
    const cursor = await byCursor(admin, TAGS, order, 2);
    assert.deepEqual(cursor.ids, offset);
    assert.ok(def && offset.length >= 5);
  });

  it('pages the API key list (its own route) by cursor as by offset', async () => {
    const owner = await t.user();
    for (let i = 0; i < 5; i++) {
      expectStatus(await admin.post('/api/v1/apikey/', { user: `/api/v1/user/${owner.id}/`, realms: ['greeting'] }), 201);
    }
    // Two keys made in the same instant: the id breaks the tie.
    await db.query(`UPDATE werkbank_apikey SET created = (SELECT min(created) FROM werkbank_apikey) WHERE id % 2 = 0`);
    const prefixes = async (path: string) =>
      expectStatus<{ objects: { resource_uri: string }[]; meta: Page['meta'] }>(await admin.get(path), 200);
    const all = await prefixes('/api/v1/apikey/?limit=100');
    assert.ok(all.objects.length >= 5);
    const walked: string[] = [];
    let page = await prefixes('/api/v1/apikey/?limit=2');
    walked.push(...page.objects.map((o) => o.resource_uri));
    while (page.meta.next) {
      page = await prefixes(page.meta.next.includes('count=false') ? page.meta.next : `${page.meta.next}&count=false`);
      assert.equal(page.meta.total_count, null);
      walked.push(...page.objects.map((o) => o.resource_uri));
    }
    assert.deepEqual(
      walked,
      all.objects.map((o) => o.resource_uri),
    );
    assertError(await admin.get('/api/v1/apikey/?after=abc'), 400, 'invalid_cursor');
  });

  it('shows what the count cost and skips it when asked', async () => {
    const counted = await admin.get(`${GREETINGS}?limit=2`);
    assert.match(counted.headers.get('server-timing') ?? '', /^count;dur=[\d.]+, page;dur=[\d.]+$/);
    const uncounted = await admin.get(`${GREETINGS}?limit=2&count=false`);
    assert.equal(uncounted.body.meta.total_count, null);
    assert.match(uncounted.headers.get('server-timing') ?? '', /^page;dur=[\d.]+$/);
    assertError(await admin.get(`${GREETINGS}?count=maybe`), 400, 'invalid_parameter');
  });

  it('keeps offset for jumps and gives the cursor of the page it jumped to', async () => {
    const all = await byOffset(admin, GREETINGS, 'name', 100);
    const jumped = expectStatus<Page>(await admin.get(`${GREETINGS}?order_by=name&offset=3&limit=2`), 200);
    assert.deepEqual(
      jumped.objects.map((o) => o.id),
      all.slice(3, 5),
    );
    const after = expectStatus<Page>(await admin.get(jumped.meta.next!), 200);
    assert.equal(after.meta.total_count, all.length, 'the count behind a cursor is the whole list’s');
    assert.deepEqual(
      after.objects.map((o) => o.id),
      all.slice(5, 7),
    );
    const last = expectStatus<Page>(await admin.get(`${GREETINGS}?order_by=name&offset=${all.length - 1}&limit=5`), 200);
    assert.equal(last.meta.next, null, 'no next address on the last page');
  });

  it('refuses a changed, cut or foreign cursor with 400 in the caller’s language', async () => {
    const first = expectStatus<Page>(await admin.get(`${GREETINGS}?order_by=name&limit=2`), 200);
    const token = new URLSearchParams(first.meta.next!.split('?')[1]).get('after')!;
    const [body, sum] = token.split('.');
    const json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as [number, string, string[]];
    const forged = (content: unknown) => `${Buffer.from(JSON.stringify(content)).toString('base64url')}.${sum}`;
    const flipped = body.slice(0, -1) + (body.endsWith('A') ? 'B' : 'A');
    const bad = [
      `${flipped}.${sum}`,
      token.slice(0, 10),
      `${body}.`,
      'abc',
      forged([json[0], json[1], ['x', 'y']]),
      encodeURIComponent('ü.ö'),
    ];
    for (const after of bad) {
      assertError(await admin.get(`${GREETINGS}?order_by=name&limit=2&after=${after}`), 400, 'invalid_cursor', /not valid/);
    }
    // A cursor of one order does not page another.
    assertError(await admin.get(`${GREETINGS}?order_by=-name&limit=2&after=${token}`), 400, 'invalid_cursor');
    admin.headers = { 'accept-language': 'de' };
    try {
      assertError(await admin.get(`${GREETINGS}?order_by=name&after=abc`), 400, 'invalid_cursor', /ungültig/);
      assertError(
        await admin.get(`${GREETINGS}?order_by=name&offset=2&after=${token}`),
        400,
        'invalid_parameter',
        /nicht beides/,
      );
    } finally {
      admin.headers = {};
    }
  });

  it('refuses a cursor whose value the column cannot hold with 400, not 500', async () => {
    const first = expectStatus<Page>(await admin.get(`${GREETINGS}?order_by=created&limit=2`), 200);
    const token = new URLSearchParams(first.meta.next!.split('?')[1]).get('after')!;
    const order = (JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8')) as unknown[])[1];
    // A well-formed token (its check sum recomputed as the server does) with 31 February in it.
    const { encodeCursor } = await import('../../server/src/resources/list-cursor');
    for (const values of [
      ['2026-02-31 10:00:00+00', '1'],
      ['not a date', '1'],
      ['2026-01-01 10:00:00+00', 'x'],
    ]) {
      const forged = encodeCursor({ order: String(order), values });
      assertError(await admin.get(`${GREETINGS}?order_by=created&limit=2&after=${forged}`), 400, 'invalid_cursor');
    }
  });

  it('never shows by cursor an object the caller may not read, not even behind another user’s cursor', async () => {
    const alice = await t.user();
    const bob = await t.user();
    for (let i = 0; i < 6; i++) {
      await createGreeting(i % 2 ? alice.client : bob.client, { name: `private ${i % 3}` });
    }
    const readable = await byOffset(alice.client, GREETINGS, 'name', 100);
    const cursor = await byCursor(alice.client, GREETINGS, 'name', 2);
    assert.deepEqual(cursor.ids, readable);
    const everything = await byOffset(admin, GREETINGS, 'name', 1000);
    assert.ok(everything.length > readable.length, 'alice may not read every greeting');
    // The admin's cursor after each object: alice gets only what she may read behind it.
    for (let i = 0; i + 1 < everything.length; i += 3) {
      const page = expectStatus<Page>(await admin.get(`${GREETINGS}?order_by=name&offset=${i}&limit=1`), 200);
      const behind = expectStatus<Page>(await alice.client.get(page.meta.next!.replace('limit=1&', 'limit=1000&')), 200);
      const expected = everything.slice(i + 1).filter((id) => readable.includes(id));
      assert.deepEqual(
        behind.objects.map((o) => o.id),
        expected,
      );
    }
  });
});

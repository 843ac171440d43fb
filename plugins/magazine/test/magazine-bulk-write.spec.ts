import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import type { AuthUser } from '@werkbank/sdk/node';
import { assertError, expectStatus, type Client } from '@werkbank/testing/node';
import { addDatum, headOf, newDepot, valuesAt, type Depot, adminWithDepotAccess } from './magazine-support';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { MagazineDatumBlocks1796500000000 } from '../src/node/datum-block-migration';
import { ROWS_PER_STATEMENT } from '../src/node/moment-filler';

/** Items per batch of the streams below: more than one statement of the store (5,000 rows on the embedded database). */
const BATCH = 6_000;

const batchOf = (from: number, n = BATCH) => Array.from({ length: n }, (_, i) => ({ value: `v${from + i}` }));

/**
 * Bulk writes of decision 0075: all or nothing, other requests answered while a large write runs
 * (on the embedded database its batches are staged in transactions of their own), and the
 * cascades the dropped foreign keys did, now done by triggers. Runs on PGlite and on PostgreSQL.
 */
describe('magazine: bulk writes', function () {
  this.timeout(120_000);
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;
  let embedded: boolean;

  before(async () => {
    t = await startTestServer({ plugins: ['magazine'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    embedded = t.server.db.kind === 'embedded';
  });
  after(async () => {
    await t?.close();
  });

  const query = async <T>(sql: string, params: unknown[] = []) => (await t.server.db.dataSource.query(sql, params)) as T[];
  /** What the database holds for a depot: datum ids (in blocks), version rows, moments, staged imports. */
  const stored = async (depot: Depot) =>
    (
      await query<{ datums: number; versions: number; moments: number; staged: number }>(
        `SELECT (SELECT coalesce(sum(last_id - first_id + 1), 0)::int FROM magazine_datum_block WHERE depot_id = $1) AS datums,
                (SELECT count(*)::int FROM magazine_datum_version WHERE depot_id = $1) AS versions,
                (SELECT count(*)::int FROM magazine_moment WHERE depot_id = $1) AS moments,
                (SELECT count(*)::int FROM magazine_import WHERE depot_id = $1) AS staged`,
        [depot.id],
      )
    )[0];

  /** The values of a depot's current datums, in datum order (every one, not a page). */
  const currentValues = async (depot: Depot) =>
    (
      await query<{ value: string }>(
        `SELECT data->>'value' AS value FROM magazine_datum_version WHERE depot_id = $1 AND valid_to IS NULL ORDER BY datum_id`,
        [depot.id],
      )
    ).map((r) => r.value);
  async function* pages(...list: Array<Array<{ value: string }>>) {
    yield* list;
  }

  it('answers other requests while a write is between its batches, and shows nothing of it before it ends', async () => {
    const depot = await newDepot(admin, 'string');
    await addDatum(admin, depot, { value: 'old 1' });
    await addDatum(admin, depot, { value: 'old 2' });
    const head = await headOf(admin, depot);
    const other = await newDepot(admin, 'string');
    let during: { values: unknown[]; head: number; otherWrite: number } | undefined;

    // The write asks for its second batch only once the first is stored (or being stored); the
    // requests below must be answered before it gets that batch, i.e. in the middle of the write.
    async function* batches() {
      yield batchOf(0);
      during = {
        values: await valuesAt(admin, depot),
        head: (await headOf(admin, depot)).id,
        otherWrite: (await admin.post(`/api/v1/datum/create-in-depot/${other.id}/`, { value: 'elsewhere' })).status,
      };
      if (embedded) {
        // The depot being written refuses other writers until the import has ended (decision 0075).
        assertError(
          await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: 'x' }),
          409,
          'depot_importing',
          /being imported/,
        );
      }
      yield batchOf(BATCH);
    }
    const written = await access.writeStream(adminUser, depot.id, batches(), {});

    assert.ok(during, 'the write asked for its second batch');
    assert.deepEqual(during.values, ['old 1', 'old 2'], 'readers see the depot as it was');
    assert.equal(during.head, head.id);
    assert.equal(during.otherWrite, 201, 'another depot takes writes meanwhile');
    assert.equal(written.count, 2 * BATCH);
    const now = await headOf(admin, depot);
    assert.equal(now.id, written.moment_id);
    assert.equal(now.size, 2 * BATCH);
    assert.ok(written.moment_id > head.id);
    const values = await valuesAt(admin, depot);
    assert.deepEqual(values.slice(0, 3), ['v0', 'v1', 'v2']);
    // The old head keeps its content (decision 0011), and so does every moment before the write.
    assert.deepEqual(await valuesAt(admin, depot, head.id), ['old 1', 'old 2']);
    assert.equal((await stored(depot)).staged, 0);
    // The depot takes writes again.
    await addDatum(admin, depot, { value: 'after' });
  });

  it('stores a large write statement by statement as the rows arrive, however the batches are cut', async () => {
    const depot = await newDepot(admin, 'string');
    const size = 1_000;
    const count = 12 * size;
    // What the embedded database holds of the import each time the write asks for the next batch:
    // the statements stored so far (each in a transaction of its own there; on PostgreSQL the
    // whole write is one transaction, which no other connection sees before it ends).
    const seen: number[] = [];
    async function* batches() {
      for (let first = 0; first < count; first += size) {
        yield Array.from({ length: size }, (_, i) => ({ value: `v${first + i}` }));
        if (embedded) seen.push((await stored(depot)).versions);
      }
    }
    const written = await access.writeStream(adminUser, depot.id, batches(), { mode: 'append' });

    assert.equal(written.count, count);
    const values = await currentValues(depot);
    assert.equal(values.length, count);
    assert.deepEqual(
      [values[0], values[ROWS_PER_STATEMENT], values[count - 1]],
      ['v0', `v${ROWS_PER_STATEMENT}`, `v${count - 1}`],
    );
    if (embedded) {
      assert.equal(seen.length, count / size);
      assert.ok(
        seen.every((n) => n % ROWS_PER_STATEMENT === 0),
        `whole statements only, not batches: ${seen.join(', ')}`,
      );
      // When the source ends, every full statement is stored (11 batches at least: the 12th may
      // still be on its way); only the rows of the last, partial one wait for the end.
      assert.equal(seen.at(-1), Math.floor((count - size) / ROWS_PER_STATEMENT) * ROWS_PER_STATEMENT);
    }
  });

  it('stores the new datums of a replace statement by statement too, also from a batch larger than a statement', async () => {
    const depot = await newDepot(admin, 'string');
    const first = ROWS_PER_STATEMENT + 2_000;
    let seen: number | undefined;
    // The first batch of a replace is compared with the current datums (none here), so its rows
    // are made while it is stored: a full statement is sent from it, the rest waits.
    async function* batches() {
      yield Array.from({ length: first }, (_, i) => ({ value: `v${i}` }));
      yield [{ value: 'last' }];
      if (embedded) seen = (await stored(depot)).versions;
    }
    const written = await access.writeStream(adminUser, depot.id, batches(), {});

    assert.equal(written.count, first + 1);
    const values = await currentValues(depot);
    assert.deepEqual([values.length, values[0], values.at(-1)], [first + 1, 'v0', 'last']);
    if (embedded) assert.equal(seen, ROWS_PER_STATEMENT);
  });

  it('leaves nothing behind when the source fails in the middle: no moment, datum, version or staged import', async () => {
    const depot = await newDepot(admin, 'string');
    await addDatum(admin, depot, { value: 'kept' });
    const head = await headOf(admin, depot);
    const before = await stored(depot);
    let stagedMidway: number | undefined;
    async function* batches() {
      yield batchOf(0);
      yield batchOf(BATCH);
      stagedMidway = (await stored(depot)).versions;
      throw new Error('the source broke');
    }
    await assert.rejects(access.writeStream(adminUser, depot.id, batches(), { mode: 'append' }), /source broke/);
    assert.ok(stagedMidway !== undefined && stagedMidway >= before.versions);
    assert.deepEqual(await stored(depot), before);
    const now = await headOf(admin, depot);
    assert.equal(now.id, head.id);
    assert.equal(now.status, 'open');
    assert.deepEqual(await valuesAt(admin, depot), ['kept']);
    await addDatum(admin, depot, { value: 'next' });
    assert.deepEqual(await valuesAt(admin, depot), ['kept', 'next']);
  });

  it('leaves nothing behind when the database refuses a statement while the next rows are being made', async () => {
    const depot = await newDepot(admin, 'string');
    await addDatum(admin, depot, { value: 'kept' });
    const head = await headOf(admin, depot);
    const before = await stored(depot);
    // A statement in the middle of the write fails in the database: on PostgreSQL the second COPY
    // (about 20,000 rows each), on its way while this process makes the next rows (decision 0075).
    await query(`CREATE FUNCTION bulk_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.data->>'value' = 'v30000' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`);
    await query(
      `CREATE TRIGGER bulk_test_refuse BEFORE INSERT ON magazine_datum_version FOR EACH ROW EXECUTE FUNCTION bulk_test_refuse()`,
    );
    let pulled = 0;
    async function* batches() {
      for (let from = 0; from < 8 * BATCH; from += BATCH) {
        pulled++;
        yield batchOf(from);
      }
    }
    try {
      await assert.rejects(access.writeStream(adminUser, depot.id, batches(), { mode: 'append' }), /refused by the test/);
    } finally {
      await query(`DROP TRIGGER bulk_test_refuse ON magazine_datum_version`);
      await query(`DROP FUNCTION bulk_test_refuse()`);
    }
    assert.ok(pulled >= 6, 'the refused row was pulled');
    assert.deepEqual(await stored(depot), before);
    assert.equal((await headOf(admin, depot)).id, head.id);
    assert.deepEqual(await valuesAt(admin, depot), ['kept']);
    await access.write(adminUser, depot.id, batchOf(0, 10), { mode: 'append' });
    assert.equal((await valuesAt(admin, depot)).length, 11, 'the depot takes the next write');
  });

  it('leaves nothing behind when a replace fails in a later batch, and the replaced datums are current again', async () => {
    const depot = await newDepot(admin, 'string');
    await access.write(adminUser, depot.id, batchOf(0, 7_000), {});
    const before = await stored(depot);
    const head = await headOf(admin, depot);
    async function* batches() {
      yield batchOf(100_000);
      yield [...batchOf(200_000, 10), { value: 42 }];
    }
    await assert.rejects(access.writeStream(adminUser, depot.id, batches(), {}), (e: Error & { field?: string }) => {
      assert.equal(e.field, `items[${BATCH + 10}].value`);
      return true;
    });
    assert.deepEqual(await stored(depot), before);
    assert.equal((await headOf(admin, depot)).id, head.id);
    const values = expectStatus<{ objects: Array<{ value: string }>; meta: { total_count: number } }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=3&offset=6000`),
      200,
    );
    assert.deepEqual(
      values.objects.map((d) => d.value),
      ['v6000', 'v6001', 'v6002'],
    );
  });

  it('keeps datum ids in blocks of their depot: a few rows per bulk write, every datum found by its id, converted by the migration', async () => {
    const depot = await newDepot(admin, 'string');
    const other = await newDepot(admin, 'string');
    await access.write(adminUser, depot.id, batchOf(0, 12_000), { mode: 'append' });
    const elsewhere = await addDatum(admin, other, { value: 'elsewhere' });
    await access.write(adminUser, depot.id, batchOf(20_000, 10), { mode: 'append' });
    const blocks = async (d: Depot) =>
      query<{ first_id: number; last_id: number }>(
        `SELECT first_id, last_id FROM magazine_datum_block WHERE depot_id = $1 ORDER BY first_id`,
        [d.id],
      );
    const ids = (
      await query<{ datum_id: number }>(
        `SELECT datum_id FROM magazine_datum_version WHERE depot_id = $1 AND valid_to IS NULL ORDER BY datum_id`,
        [depot.id],
      )
    ).map((r) => r.datum_id);
    assert.equal(ids.length, 12_010);
    const written = await blocks(depot);
    // One block per statement of the writes (pages of 1,000), not one row per datum.
    assert.ok(written.length <= 13, `${written.length} blocks`);
    assert.equal((await stored(depot)).datums, 12_010);
    const inDepot = async (id: number) =>
      String(expectStatus<{ depot: string }>(await admin.get(`/api/v1/datum/${id}/`), 200).depot);
    const probes = [ids[0], ids[999], ids[1000], ids[11_999], ids[12_000], ids[12_009]];
    for (const id of probes) assert.equal(await inDepot(id), `/api/v1/depot/${depot.id}/`, `datum ${id}`);
    assert.equal(await inDepot(elsewhere.id), `/api/v1/depot/${other.id}/`);
    assert.equal((await admin.get(`/api/v1/datum/${ids[12_009] + 1_000_000}/`)).status, 404);

    // The migration turns datum rows into runs of consecutive ids (and back).
    const migration = new MagazineDatumBlocks1796500000000();
    const runner = t.server.db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      // Asked on the runner's own connection: the embedded database serves one connection at a time.
      const [{ n }] = (await runner.query(`SELECT count(*)::int AS n FROM magazine_datum WHERE depot_id = $1`, [depot.id])) as {
        n: number;
      }[];
      assert.equal(n, 12_010);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const converted = await blocks(depot);
    assert.ok(converted.length <= written.length);
    assert.equal((await stored(depot)).datums, 12_010);
    for (const id of probes) assert.equal(await inDepot(id), `/api/v1/depot/${depot.id}/`, `datum ${id} after the migration`);
    assert.equal(await inDepot(elsewhere.id), `/api/v1/depot/${other.id}/`);
    // The sequence draws on: a new datum gets an id no block holds yet.
    const next = await addDatum(admin, depot, { value: 'next' });
    assert.ok(next.id > ids[12_009]);
    assert.equal(await inDepot(next.id), `/api/v1/depot/${depot.id}/`);
  });

  it('stores text of every kind unchanged and in order: umlauts, characters beyond 16 bits, tabs, newlines, backslashes', async () => {
    const depot = await newDepot(admin, 'string');
    // Every 7th value of the first batch has characters of several bytes; the second batch has
    // none (rows of single-byte text and of several-byte text are measured differently).
    const special = (i: number) => `Grüße ${i}\t🌍 C:\\Daten\\${i}\nzweite Zeile "zitiert" ß`;
    const first = Array.from({ length: BATCH }, (_, i) => ({ value: i % 7 === 3 ? special(i) : `v${i}` }));
    await access.writeStream(adminUser, depot.id, pages(first, batchOf(BATCH)), {});
    assert.deepEqual(
      await currentValues(depot),
      [...first, ...batchOf(BATCH)].map((v) => v.value),
    );
    const one = expectStatus<{ objects: Array<{ value: string }> }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=1&offset=3`),
      200,
    ).objects[0];
    assert.equal(one.value, special(3));
  });

  it('counts what a bulk write stores: datums and bytes of the moment, for an append and for a replace', async () => {
    const depot = await newDepot(admin, 'string');
    const bytesFrom = async (momentId: number) =>
      (
        await query<{ bytes: number }>(
          `SELECT coalesce(sum(bytes), 0)::int AS bytes FROM magazine_datum_version WHERE valid_from = $1`,
          [momentId],
        )
      )[0].bytes;
    const momentOf = async (id: number) =>
      expectStatus<{ size: number; persistent_size: number }>(await admin.get(`/api/v1/moment/${id}/`), 200);

    const appended = await access.writeStream(adminUser, depot.id, pages(batchOf(0), batchOf(BATCH, 10)), { mode: 'append' });
    const first = await momentOf(appended.moment_id);
    assert.equal(first.size, BATCH + 10);
    assert.ok(first.persistent_size > 0);
    assert.equal(first.persistent_size, await bytesFrom(appended.moment_id), 'the bytes of every new version');

    // Fewer values, the first five changed: five new versions, the rest kept, the last ten removed.
    const values = batchOf(0).map((v, i) => (i < 5 ? { value: `changed ${i}` } : v));
    const replaced = await access.writeStream(adminUser, depot.id, pages(values), { mode: 'replace' });
    const second = await momentOf(replaced.moment_id);
    assert.equal(second.size, BATCH);
    assert.equal(second.persistent_size, await bytesFrom(replaced.moment_id), 'the bytes of the five new versions');
    assert.equal(
      (
        await query<{ n: number }>(`SELECT count(*)::int AS n FROM magazine_datum_version WHERE valid_from = $1`, [
          replaced.moment_id,
        ])
      )[0].n,
      5,
    );
    assert.deepEqual(
      await currentValues(depot),
      values.map((v) => v.value),
    );
  });

  it('removes the datums and versions of a deleted depot, and unsets the author of a deleted user', async () => {
    const bob = await t.user();
    const depot = await newDepot(bob.client, 'string');
    await addDatum(bob.client, depot, { value: 'by bob' });
    const bobs = async () =>
      query<{ user_id: number | null }>(`SELECT user_id FROM magazine_datum_version WHERE depot_id = $1`, [depot.id]);
    assert.deepEqual(await bobs(), [{ user_id: bob.id }]);
    await query(`DELETE FROM werkbank_user WHERE id = $1`, [bob.id]);
    assert.deepEqual(await bobs(), [{ user_id: null }]);

    const gone = await newDepot(admin, 'string');
    await access.write(adminUser, gone.id, batchOf(0, 100), {});
    assert.equal((await stored(gone)).versions, 100);
    expectStatus(await admin.delete(gone.resource_uri), 204);
    assert.deepEqual(await stored(gone), { datums: 0, versions: 0, moments: 0, staged: 0 });
  });
});

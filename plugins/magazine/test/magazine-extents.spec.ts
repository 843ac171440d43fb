import assert from 'node:assert/strict';
import { startTestServer, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { TypeHierarchy, type AuthUser, type TypeRegistry } from '@werkbank/sdk/node';
import { DepotAccess } from '@werkbank/plugin-magazine/api';
import { addDatum, newDepot, type Datum, type Depot, type Moment, adminWithDepotAccess } from './magazine-support';
import { MagazineDatumExtent1765100000000 } from '../src/node/datum-extent-migration';
import { MagazineDatumCells1796600000000 } from '../src/node/datum-cell-migration';

type Extent = [number, number, number, number];
type ExtentMoment = Moment & { extent: Extent | null };
type ExtentDepot = Depot & { extent: Extent | null; current_moment: ExtentMoment | null };
interface Page {
  objects: Datum[];
  meta: { total_count: number; next_after: number | null; offset: number; limit: number };
}

const point = (x: number, y: number, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [x, y] }, properties },
});

/** One datum per located type (and one without a location), with the extent each must get. */
const LOCATED: Array<[type: string, fields: Record<string, unknown>, extent: Extent]> = [
  [
    'feature',
    {
      feature: {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [7, 50],
              [8, 50],
              [8, 51],
              [7, 50],
            ],
          ],
        },
        properties: { name: 'a' },
      },
    },
    [7, 50, 8, 51],
  ],
  ['bbox', { value: [7, 50, 8, 51] }, [7, 50, 8, 51]],
  ['bbox3d', { value: [7, 50, 8, 51, 0, 100] }, [7, 50, 8, 51]],
  ['grid', { bbox: [7, 50, 8, 51], width: 256, height: 256 }, [7, 50, 8, 51]],
  ['pointcloud', { bbox3d: [7, 50, 8, 51, 0, 9], name: 'scan', pointcount: 10 }, [7, 50, 8, 51]],
  ['mesh', { value: 'house.glb', origin: [7.5, 50.5, 60] }, [7.5, 50.5, 7.5, 50.5]],
  ['billboard', { value: { image: '/pin.png', position: [7.5, 50.5, 12] } }, [7.5, 50.5, 7.5, 50.5]],
  ['wms', { tms_url: 'https://example.org/wms', bbox: [7, 50, 8, 51] }, [7, 50, 8, 51]],
  ['wmts', { tms_url: 'https://example.org/wmts', bbox: [7, 50, 8, 51] }, [7, 50, 8, 51]],
];

/** Extents (issue 15 item 1) and streaming reads (item 3) of the Magazine, on a real database (decision 0070). */
describe('magazine: extents, window queries and streaming reads', () => {
  let t: TestServer;
  let admin: Client;
  let adminUser: AuthUser;
  let access: DepotAccess;

  before(async () => {
    t = await startTestServer({ plugins: ['magazine'] });
    ({ admin, adminUser, access } = await adminWithDepotAccess(t));
    // A type another plugin derives from feature: it takes the feature's rule.
    t.server.kernel.container
      .get<TypeRegistry>(TypeHierarchy)
      .add({ id: 'cadastre.parcel', name: 'parcel', base: 'feature' }, 'cadastre');
  });
  after(async () => {
    await t?.close();
  });

  const sql = (text: string, params: unknown[] = []) => t.server.db.dataSource.query(text, params) as Promise<any[]>;
  /** The stored extents of the depot's current versions by datum id, as [west, south, east, north]. */
  const storedExtents = async (depot: Depot) => {
    const rows = await sql(
      `SELECT datum_id, (extent[1])[0] AS w, (extent[1])[1] AS s, (extent[0])[0] AS e, (extent[0])[1] AS n
       FROM magazine_datum_version WHERE depot_id = $1 AND valid_to IS NULL ORDER BY datum_id`,
      [depot.id],
    );
    return rows.map((r) => (r.w === null ? null : [r.w, r.s, r.e, r.n].map(Number)));
  };
  const inWindow = async (depot: Depot, bbox: string, moment?: number, extra = '') =>
    expectStatus<Page>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?bbox=${bbox}${moment ? `&moment=${moment}` : ''}${extra}`),
      200,
    );
  const idsIn = async (depot: Depot, bbox: string, moment?: number) =>
    (await inWindow(depot, bbox, moment)).objects.map((d) => d.id);
  const depotNow = async (depot: Depot) => expectStatus<ExtentDepot>(await admin.get(depot.resource_uri), 200);
  const momentNow = async (id: number) => expectStatus<ExtentMoment>(await admin.get(`/api/v1/moment/${id}/`), 200);
  const finalize = async (momentId: number) =>
    expectStatus<Moment>(await admin.post(`/api/v1/moment/${momentId}/finalize/`, {}), 200);
  const approve = async (momentId: number) =>
    expectStatus<Moment>(await admin.post(`/api/v1/moment/${momentId}/approve/`, {}), 200);

  it('stores the extent of every located type, written singly and in a batch, and finds it by window', async () => {
    for (const [type, fields, extent] of LOCATED) {
      const depot = await newDepot(admin, type);
      const single = await addDatum(admin, depot, fields);
      const batch = expectStatus<{ objects: Datum[] }>(
        await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects: [fields, fields] }),
        201,
      ).objects;
      assert.deepEqual(await storedExtents(depot), [extent, extent, extent], type);
      assert.deepEqual(await idsIn(depot, '7.4,50.4,7.6,50.6'), [single.id, ...batch.map((d) => d.id)], type);
      assert.deepEqual(await idsIn(depot, '9,52,10,53'), [], `${type}: a window elsewhere`);
      assert.deepEqual((await depotNow(depot)).extent, extent, `${type}: the depot's extent`);
    }
    const strings = await newDepot(admin, 'string');
    await addDatum(admin, strings, { value: 'no place' });
    assert.deepEqual(await storedExtents(strings), [null]);
    assert.deepEqual(await idsIn(strings, '-180,-90,180,90'), []);
    assert.equal((await depotNow(strings)).extent, null);
  });

  it('gives a type derived from feature the feature’s extent', async () => {
    const depot = await newDepot(admin, 'parcel');
    const d = await addDatum(admin, depot, point(13.4, 52.5));
    assert.deepEqual(await storedExtents(depot), [[13.4, 52.5, 13.4, 52.5]]);
    assert.deepEqual(await idsIn(depot, '13,52,14,53'), [d.id]);
  });

  it('keeps extents per version: an update moves the datum at the head, old moments find it where it was', async () => {
    const depot = await newDepot(admin, 'feature');
    const a = await addDatum(admin, depot, point(7.1, 50.1));
    const b = await addDatum(admin, depot, point(7.9, 50.9));
    await finalize(a.moment_id);
    const moved = expectStatus<Datum>(await admin.patch(`/api/v1/datum/${a.id}/`, point(9.5, 52.5)), 200);
    assert.ok(moved.moment_id > a.moment_id);
    assert.deepEqual(await idsIn(depot, '7,50,7.2,50.2'), [], 'not at the old place at the head');
    assert.deepEqual(await idsIn(depot, '9,52,10,53'), [a.id]);
    assert.deepEqual(await idsIn(depot, '7,50,7.2,50.2', a.moment_id), [a.id], 'at the old moment, at the old place');
    assert.deepEqual(await idsIn(depot, '9,52,10,53', a.moment_id), []);
    assert.deepEqual((await depotNow(depot)).extent, [7.9, 50.9, 9.5, 52.5], 'the depot’s extent shrank and grew');
    assert.deepEqual((await momentNow(a.moment_id)).extent, [7.1, 50.1, 7.9, 50.9], 'the old moment keeps its extent');
    // A change of properties only keeps the extent; a delete of the edge datum shrinks it.
    expectStatus(await admin.patch(`/api/v1/datum/${b.id}/`, point(7.9, 50.9, { name: 'b' })), 200);
    assert.deepEqual((await depotNow(depot)).extent, [7.9, 50.9, 9.5, 52.5]);
    expectStatus(await admin.delete(`/api/v1/datum/${a.id}/`), 200);
    assert.deepEqual((await depotNow(depot)).extent, [7.9, 50.9, 7.9, 50.9]);
    assert.deepEqual(await idsIn(depot, '9,52,10,53'), []);
    expectStatus(await admin.delete(`/api/v1/datum/${b.id}/`), 200);
    assert.equal((await depotNow(depot)).extent, null, 'no datum, no extent');
  });

  it('writes extents through the streaming write (replace and append) and keeps unchanged versions', async () => {
    const depot = await newDepot(admin, 'feature');
    const first = await access.write(adminUser, depot.id, [point(1, 1), point(2, 2), point(3, 3)], {});
    assert.deepEqual(await storedExtents(depot), [
      [1, 1, 1, 1],
      [2, 2, 2, 2],
      [3, 3, 3, 3],
    ]);
    assert.deepEqual((await momentNow(first.moment_id)).extent, [1, 1, 3, 3]);
    // Replace: the second datum moves, the third goes.
    const second = await access.write(adminUser, depot.id, [point(1, 1), point(-2, -2)], {});
    assert.deepEqual(await storedExtents(depot), [
      [1, 1, 1, 1],
      [-2, -2, -2, -2],
    ]);
    assert.deepEqual((await momentNow(second.moment_id)).extent, [-2, -2, 1, 1]);
    assert.equal((await idsIn(depot, '2.5,2.5,3.5,3.5', first.moment_id)).length, 1, 'the first moment still has the third');
    assert.equal((await idsIn(depot, '2.5,2.5,3.5,3.5', second.moment_id)).length, 0);
    const appended = await access.writeStream(
      adminUser,
      depot.id,
      (async function* () {
        yield [point(10, 10)];
        yield [{ feature: { type: 'Feature', geometry: null, properties: {} } }];
      })(),
      { mode: 'append' },
    );
    assert.deepEqual((await momentNow(appended.moment_id)).extent, [-2, -2, 10, 10]);
    assert.deepEqual((await storedExtents(depot)).slice(2), [[10, 10, 10, 10], null], 'an empty geometry has no extent');
    // The typed API: the same window query and paging.
    await approve(appended.moment_id);
    const page = await access.intersecting(adminUser, depot.resource_uri, [0, 0, 20, 20]);
    assert.deepEqual(
      page.items.map((i) => i.fields),
      [point(1, 1), point(10, 10)],
    );
    assert.equal(page.moment_id, appended.moment_id);
    assert.equal(page.next_after, null);
    const atFirst = await access.intersecting(adminUser, depot.id, [0, 0, 20, 20], { momentId: first.moment_id, limit: 2 });
    assert.equal(atFirst.items.length, 2);
    assert.equal(atFirst.next_after, atFirst.items[1].index);
    const rest = await access.intersecting(adminUser, depot.id, [0, 0, 20, 20], {
      momentId: first.moment_id,
      limit: 2,
      after: atFirst.next_after!,
    });
    assert.deepEqual(
      [...atFirst.items, ...rest.items].map((i) => i.fields),
      [point(1, 1), point(2, 2), point(3, 3)],
    );
    await assert.rejects(access.intersecting(adminUser, depot.id, [0, 5, 1, 4]), { code: 'invalid_parameter' });
  });

  it('brings old extents back with a restore, and discards a deleted head’s', async () => {
    const depot = await newDepot(admin, 'feature');
    const a = await addDatum(admin, depot, point(5, 5));
    await finalize(a.moment_id);
    const moved = expectStatus<Datum>(await admin.patch(`/api/v1/datum/${a.id}/`, point(6, 6)), 200);
    await addDatum(admin, depot, point(-30, -30));
    assert.deepEqual((await depotNow(depot)).extent, [-30, -30, 6, 6]);
    const restored = expectStatus<ExtentMoment>(await admin.post(`/api/v1/moment/${a.moment_id}/restore/`, {}), 200);
    assert.ok(restored.id > moved.moment_id);
    assert.deepEqual(restored.extent, [5, 5, 5, 5]);
    assert.deepEqual((await depotNow(depot)).extent, [5, 5, 5, 5]);
    assert.deepEqual(await idsIn(depot, '4.9,4.9,5.1,5.1'), [a.id]);
    assert.deepEqual(await idsIn(depot, '5.9,5.9,6.1,6.1'), []);
    assert.deepEqual(await storedExtents(depot), [[5, 5, 5, 5]]);

    // Deleting the head makes the moment before it current again, with its extent.
    const later = await addDatum(admin, depot, point(40, 40));
    assert.equal(later.moment_id, restored.id);
    await finalize(restored.id);
    const edit = expectStatus<Datum>(await admin.patch(`/api/v1/datum/${a.id}/`, point(50, 50)), 200);
    assert.deepEqual((await depotNow(depot)).extent, [40, 40, 50, 50]);
    expectStatus(await admin.delete(`/api/v1/moment/${edit.moment_id}/`), 200);
    assert.deepEqual((await depotNow(depot)).extent, [5, 5, 40, 40]);
    assert.deepEqual(await idsIn(depot, '4.9,4.9,5.1,5.1'), [a.id]);
    // A middle moment deleted: the others keep their snapshots and extents.
    expectStatus(await admin.delete(`/api/v1/moment/${moved.moment_id}/`), 200);
    assert.deepEqual((await momentNow(a.moment_id)).extent, [5, 5, 5, 5]);
    assert.deepEqual(await idsIn(depot, '4.9,4.9,5.1,5.1', a.moment_id), [a.id]);
  });

  it('finds datums across the antimeridian from either side and by a window that crosses it', async () => {
    const boxes = await newDepot(admin, 'bbox');
    const across = await addDatum(admin, boxes, { value: [170, -20, -170, -10] });
    const east = await addDatum(admin, boxes, { value: [175, 5, 176, 6] });
    assert.deepEqual(await storedExtents(boxes), [
      [-180, -20, 180, -10],
      [175, 5, 176, 6],
    ]);
    assert.deepEqual(await idsIn(boxes, '175,-15,176,-14'), [across.id]);
    assert.deepEqual(await idsIn(boxes, '-176,-15,-175,-14'), [across.id]);
    assert.deepEqual(await idsIn(boxes, '179,-30,-179,10'), [across.id], 'a window across the line');
    assert.deepEqual(await idsIn(boxes, '170,-30,-170,10'), [across.id, east.id]);

    const features = await newDepot(admin, 'feature');
    const west = await addDatum(admin, features, point(-179.5, 0));
    const split = await addDatum(admin, features, {
      feature: {
        type: 'Feature',
        geometry: {
          type: 'MultiLineString',
          coordinates: [
            [
              [178, 1],
              [180, 1],
            ],
            [
              [-180, 1],
              [-178, 1],
            ],
          ],
        },
        properties: {},
      },
    });
    await addDatum(admin, features, point(0, 0));
    assert.deepEqual(await idsIn(features, '179,-5,-179,5'), [west.id, split.id]);
    assert.deepEqual((await inWindow(features, '179,-5,-179,5')).meta.total_count, 2);
  });

  it('has no extent for empty geometries, which no window finds and the depot’s extent ignores', async () => {
    const depot = await newDepot(admin, 'feature');
    const empty = [
      { feature: { type: 'Feature', geometry: null, properties: {} } },
      { feature: { type: 'Feature', geometry: { type: 'MultiPolygon', coordinates: [] }, properties: {} } },
      { feature: { type: 'Feature', geometry: { type: 'GeometryCollection', geometries: [] }, properties: {} } },
    ];
    for (const fields of empty) await addDatum(admin, depot, fields);
    assert.deepEqual(await storedExtents(depot), [null, null, null]);
    assert.equal((await depotNow(depot)).extent, null);
    assert.deepEqual(await idsIn(depot, '-180,-90,180,90'), []);
    const placed = await addDatum(admin, depot, point(1, 2));
    assert.deepEqual(await idsIn(depot, '-180,-90,180,90'), [placed.id]);
    assert.deepEqual((await depotNow(depot)).extent, [1, 2, 1, 2]);
  });

  it('pages a window by datum index (after=) as stably as by offset, and counts it', async () => {
    const depot = await newDepot(admin, 'feature');
    const objects = Array.from({ length: 60 }, (_, i) => point(i % 2 ? 20 + i / 100 : 10 + i / 100, 10));
    const created = expectStatus<{ objects: Datum[] }>(
      await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects }),
      201,
    ).objects;
    const expected = created.filter((_, i) => i % 2 === 0).map((d) => d.id);
    const byAfter: number[] = [];
    let after: number | null = null;
    for (;;) {
      const page: Page = await inWindow(depot, '9,9,11,11', undefined, `&limit=7${after ? `&after=${after}` : ''}`);
      assert.equal(page.meta.total_count, 30);
      byAfter.push(...page.objects.map((d) => d.id));
      after = page.meta.next_after;
      if (!after) break;
    }
    assert.deepEqual(byAfter, expected);
    const byOffset: number[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      byOffset.push(...(await inWindow(depot, '9,9,11,11', undefined, `&limit=7&offset=${offset}`)).objects.map((d) => d.id));
    }
    assert.deepEqual(byOffset, expected);
    for (const bad of ['1,2,3', '1,2,3,x', '0,5,1,4', '1,,2,3']) {
      const res = await admin.get(`/api/v1/datum/by-depot/${depot.id}/?bbox=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.body.code, 'invalid_parameter');
      assert.equal(res.body.field, 'bbox');
    }
  });

  it('computes the extents and cells of stored data in its migrations', async () => {
    const depot = await newDepot(admin, 'feature');
    const a = await addDatum(admin, depot, point(3, 4));
    await finalize(a.moment_id);
    expectStatus(await admin.patch(`/api/v1/datum/${a.id}/`, point(5, 6, { zone: 'B', area: 2 })), 200);
    const wms = await newDepot(admin, 'wms');
    await addDatum(admin, wms, { tms_url: 'https://example.org/wms', bbox: [1, 2, 3, 4] });
    const extents = new MagazineDatumExtent1765100000000();
    const cells = new MagazineDatumCells1796600000000();
    const runner = t.server.db.dataSource.createQueryRunner();
    try {
      await cells.down(runner);
      await extents.down(runner);
      await extents.up(runner);
      await cells.up(runner);
    } finally {
      await runner.release();
    }
    assert.deepEqual(await storedExtents(depot), [[5, 6, 5, 6]]);
    assert.deepEqual(await idsIn(depot, '2.9,3.9,3.1,4.1', a.moment_id), [a.id], 'old versions too');
    assert.deepEqual(await idsIn(depot, '4.9,5.9,5.1,6.1'), [a.id], 'found by the cell computed from the stored extent');
    assert.deepEqual(await idsIn(depot, '2.9,3.9,3.1,4.1'), [], 'not where it was');
    const stored = expectStatus<{ feature: { properties: object } }>(await admin.get(`/api/v1/datum/${a.id}/`), 200);
    assert.deepEqual(Object.keys(stored.feature.properties), ['zone', 'area'], 'the key order survives its change to text');
    assert.deepEqual((await momentNow(a.moment_id)).extent, [3, 4, 3, 4]);
    assert.deepEqual((await depotNow(depot)).extent, [5, 6, 5, 6]);
    assert.deepEqual((await depotNow(wms)).extent, [1, 2, 3, 4]);
  });
});

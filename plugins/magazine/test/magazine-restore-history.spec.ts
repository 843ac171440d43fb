import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '@werkbank/testing/node';
import { expectStatus, type Client } from '@werkbank/testing/node';
import { newDepot, type Datum, type Depot, type Moment } from './magazine-support';
import { uploadFile, uploadReset } from './magazine-upload-support';

/**
 * One edit of a scripted history. A datum is named by the key it was added under; for a file
 * depot the key is the first path and the file's bytes are derived from it.
 */
type Edit = { add: string } | { batch: string[] } | { change: [key: string, value: string] } | { delete: string };

/** A history: one list of edits per moment, each moment finalized before the next begins. */
interface History {
  title: string;
  type: 'string' | 'file';
  moments: Edit[][];
}

/**
 * Moments with deletes and changes in them are the ones whose restore depends on the exact
 * boundary of a version's validity (decision 0011: valid_from <= m < valid_to).
 */
const HISTORIES: History[] = [
  {
    title: 'values',
    type: 'string',
    moments: [
      [{ add: 'a' }, { add: 'b' }],
      [{ batch: ['c', 'd', 'e'] }],
      [{ change: ['a', 'a2'] }, { delete: 'b' }],
      [{ delete: 'c' }, { add: 'f' }],
      [{ change: ['a', 'a3'] }, { change: ['d', 'd2'] }, { change: ['d', 'd3'] }],
      [{ batch: ['g', 'h'] }, { delete: 'g' }, { delete: 'e' }],
      [{ delete: 'a' }, { delete: 'd' }, { delete: 'f' }, { delete: 'h' }],
      [{ add: 'i' }],
    ],
  },
  {
    title: 'files',
    type: 'file',
    moments: [
      [{ add: 'a.txt' }, { add: 'b.txt' }],
      [{ batch: ['plan/c.txt', 'plan/d.txt'] }],
      [{ change: ['a.txt', 'docs/a.txt'] }, { delete: 'b.txt' }],
      [{ add: 'b.txt' }, { delete: 'plan/c.txt' }],
      [{ change: ['plan/d.txt', 'd.txt'] }, { change: ['plan/d.txt', 'docs/d.txt'] }],
      [{ delete: 'a.txt' }, { delete: 'b.txt' }, { delete: 'plan/d.txt' }],
      [{ add: 'e.txt' }],
    ],
  },
];

/** The bytes of a file added under `key`. */
const bytesOf = (key: string) => `content of ${key}\n`;

/** What a datum is, without what names the moment it was read at or the stored row. */
function comparable(d: Datum): Record<string, unknown> {
  const { resource_uri, moment_id, version, download_url, embed_url, ...rest } = d;
  void [resource_uri, moment_id, version, download_url, embed_url];
  return rest;
}

/** Restore (spec 000 §4; decision 0011): restoring any moment gives back exactly that moment's snapshot. */
describe('magazine: restoring every moment of an edit history', () => {
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ plugins: ['magazine'] });
    admin = await t.admin();
  });
  after(async () => {
    await t?.close();
  });

  const page = async (url: string) => expectStatus<{ objects: Datum[] }>(await admin.get(`${url}?limit=1000`), 200).objects;
  const head = async (depot: Depot) => page(`/api/v1/datum/by-depot/${depot.id}/`);

  /** The snapshot as a reader sees it, with each file's bytes. */
  async function snapshot(datums: Datum[]): Promise<unknown[]> {
    const out: unknown[] = [];
    for (const d of datums) {
      const row: Record<string, unknown> = comparable(d);
      if (d.download_url) row.bytes = expectStatus<string>(await admin.get(String(d.download_url)), 200);
      out.push(row);
    }
    return out;
  }

  /** Plays one edit, keeping `datums` (key → datum) current. */
  async function play(depot: Depot, type: History['type'], edit: Edit, datums: Map<string, Datum>): Promise<void> {
    const adds = 'add' in edit ? [edit.add] : 'batch' in edit ? edit.batch : [];
    if (adds.length && type === 'file') {
      // A batch of files is one upload id with several files.
      const id = await uploadReset(admin, depot);
      for (const key of adds) {
        const reply = await uploadFile(admin, id, key, Buffer.from(bytesOf(key)));
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        datums.set(key, reply.body.file.datum as Datum);
      }
    } else if ('add' in edit) {
      datums.set(
        edit.add,
        expectStatus<Datum>(await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { value: edit.add }), 201),
      );
    } else if ('batch' in edit) {
      const objects = edit.batch.map((value) => ({ value }));
      const reply = expectStatus<{ objects: Datum[] }>(
        await admin.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects }),
        201,
      );
      assert.equal(reply.objects.length, edit.batch.length);
      edit.batch.forEach((key, i) => datums.set(key, reply.objects[i]));
    } else if ('change' in edit) {
      const [key, value] = edit.change;
      const d = datums.get(key)!;
      datums.set(key, expectStatus<Datum>(await admin.patch(`/api/v1/datum/${d.index}/`, { value }), 200));
    } else {
      expectStatus(await admin.delete(`/api/v1/datum/${datums.get(edit.delete)!.index}/`), 200);
      datums.delete(edit.delete);
    }
  }

  for (const history of HISTORIES) {
    it(`restores each moment of a history of ${history.title} to exactly its snapshot`, async () => {
      const depot = await newDepot(admin, history.type);
      const datums = new Map<string, Datum>();
      // Moment id → the head's snapshot taken while that moment was the open head.
      const snapshots = new Map<number, unknown[]>();
      for (const edits of history.moments) {
        for (const edit of edits) await play(depot, history.type, edit, datums);
        const current = await head(depot);
        const moment = current[0]?.moment_id ?? expectStatus<Depot>(await admin.get(depot.resource_uri), 200).current_moment!.id;
        assert.ok(!snapshots.has(moment), 'every scripted moment is a moment of its own');
        snapshots.set(moment, await snapshot(current));
        expectStatus(await admin.post(`/api/v1/moment/${moment}/finalize/`, {}), 200);
      }
      assert.equal(snapshots.size, history.moments.length);

      for (const [moment, expected] of snapshots) {
        const restored = expectStatus<Moment>(await admin.post(`/api/v1/moment/${moment}/restore/`, {}), 200);
        assert.equal(restored.origin, 'restore');
        const now = await head(depot);
        assert.ok(
          now.every((d) => d.moment_id === restored.id),
          'the head is the restoring moment',
        );
        assert.deepEqual(await snapshot(now), expected, `the head after restoring moment ${moment}`);
        assert.deepEqual(
          await snapshot(await page(`/api/v1/datum/by-moment/${restored.id}/`)),
          expected,
          `moment ${restored.id}`,
        );
        assert.equal(restored.size, expected.length, `the size of the moment restoring ${moment}`);
      }
      // The history itself is untouched by the restores.
      for (const [moment, expected] of snapshots) {
        assert.deepEqual(
          await snapshot(await page(`/api/v1/datum/by-moment/${moment}/`)),
          expected,
          `moment ${moment} afterwards`,
        );
      }
    });
  }
});

import type { TestClient } from '@werkbank/testing/node';
import { seededRandom as random } from '@werkbank/testing/random';

/** The shape of the history bench/moments builds; the defaults are in bench/moments.ts. */
export interface HistoryOptions {
  /** Datums created before the first moment is finalized. */
  datums: number;
  /** Datums per create call (the API takes at most 1000). */
  batch: number;
  /** Moments of changes after the first one. */
  rounds: number;
  /** Per round: datums patched, deleted and added (added = deleted keeps the depot's size). */
  patches: number;
  deletes: number;
  adds: number;
  /** Single-datum writes in flight at once (the server serialises writers of one depot). */
  concurrency: number;
}

/** A snapshot as a read in datum order must return it. */
export interface Snapshot {
  ids: number[];
  values: number[];
}

export interface History {
  depotId: number;
  /** The first moment, finalized right after seeding: every datum in its first version. */
  oldMoment: number;
  /** The open head after the rounds of changes. */
  head: number;
  old: Snapshot;
  current: Snapshot;
}

/** `n` distinct elements of `from`, chosen with `rnd` (a partial Fisher–Yates shuffle of a copy). */
function pick(from: number[], n: number, rnd: () => number): number[] {
  const a = [...from];
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (a.length - i));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a.slice(0, n);
}

async function inPool<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

function expect(res: { status: number; body: any }, status: number, what: string): any {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

const snapshot = (values: Map<number, number>): Snapshot => {
  const ids = [...values.keys()].sort((a, b) => a - b);
  return { ids, values: ids.map((id) => values.get(id)!) };
};

/**
 * Builds, through the HTTP API, a depot of type `int` with `datums` datums in one finalized moment,
 * then `rounds` moments of patches, deletes and adds, each finalized before the next starts; the
 * last stays open as the head. Keeps a model of the values, so reads can be checked against it.
 */
export async function buildHistory(client: TestClient, o: HistoryOptions, log: (line: string) => void): Promise<History> {
  const depot = expect(
    await client.post('/api/v1/depot/', { name: 'bench moments', content_type: 'int' }),
    201,
    'creating the depot',
  );
  const values = new Map<number, number>();
  let started = performance.now();
  let moment = 0;
  let counter = 0;
  const create = async (n: number) => {
    const objects = Array.from({ length: n }, () => ({ value: counter++ }));
    const reply = expect(await client.post(`/api/v1/datum/create-in-depot/${depot.id}/`, { objects }), 201, 'create-in-depot');
    for (const d of reply.objects as Array<{ id: number; value: number }>) values.set(d.id, d.value);
    moment = reply.moment_id;
  };
  for (let done = 0; done < o.datums; done += o.batch) await create(Math.min(o.batch, o.datums - done));
  const oldMoment = moment;
  const old = snapshot(values);
  log(`created ${o.datums} datums in ${((performance.now() - started) / 1000).toFixed(1)} s (moment ${oldMoment})`);

  const rnd = random(4711);
  started = performance.now();
  for (let round = 1; round <= o.rounds; round++) {
    moment = expect(await client.get(`/api/v1/moment/${moment}/finalize/`), 200, 'finalize').id;
    const chosen = pick([...values.keys()], o.patches + o.deletes, rnd);
    const patched = chosen.slice(0, o.patches);
    const deleted = chosen.slice(o.patches);
    await inPool(patched, o.concurrency, async (id) => {
      const value = values.get(id)! + 1_000_000;
      expect(await client.patch(`/api/v1/datum/${id}/`, { value }), 200, `patching datum ${id}`);
      values.set(id, value);
    });
    await inPool(deleted, o.concurrency, async (id) => {
      expect(await client.delete(`/api/v1/datum/${id}/`), 200, `deleting datum ${id}`);
      values.delete(id);
    });
    for (let done = 0; done < o.adds; done += o.batch) await create(Math.min(o.batch, o.adds - done));
  }
  log(
    `${o.rounds} moments of changes (${o.patches} patches, ${o.deletes} deletes, ${o.adds} adds each) ` +
      `in ${((performance.now() - started) / 1000).toFixed(1)} s; head ${moment}`,
  );
  return { depotId: depot.id, oldMoment, head: moment, old, current: snapshot(values) };
}

import assert from 'node:assert/strict';
import { CELL_LEVELS, extentCell, windowCells, type CellQuery } from './datum-cell';
import type { Extent } from './datum-extent';
import { seededRandom as random } from '@werkbank/testing/random';

const ROOT = 2 ** (2 * CELL_LEVELS);

/** A box somewhere in the world, of a size anywhere from a point to half the world. */
function someBox(next: () => number): Extent {
  const size = [0, 1e-6, 1e-4, 0.01, 1, 30, 200][Math.floor(next() * 7)];
  const w = -180 + next() * 360;
  const s = -90 + next() * 180;
  return [w, s, Math.min(180, w + next() * size), Math.min(90, s + next() * size)];
}

/** A box of about the window's size whose corner lies within the window's size of the window. */
function nearBox(w: Extent, next: () => number): Extent {
  const dx = (w[2] - w[0]) * 1.5 + 1e-9;
  const dy = (w[3] - w[1]) * 1.5 + 1e-9;
  const x = Math.max(-180, Math.min(180, w[0] - dx / 2 + next() * dx * 1.5));
  const y = Math.max(-90, Math.min(90, w[1] - dy / 2 + next() * dy * 1.5));
  return [x, y, Math.min(180, x + next() * dx), Math.min(90, y + next() * dy)];
}

const meets = (a: Extent, b: Extent) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
const asks = (q: CellQuery, cell: number) => q.keys.includes(cell) || q.ranges.some(([lo, hi]) => cell >= lo && cell <= hi);

describe('magazine: datum cells (window keys of the B-tree)', () => {
  it('gives a point the finest cell, and an extent the smallest cell that holds it', () => {
    const point = extentCell([7.1, 50.7, 7.1, 50.7])!;
    assert.equal(point % 2, 1, 'a cell of the finest level has an odd key');
    assert.equal(extentCell([7.1, 50.7, 7.1000001, 50.7000001]), point, 'a few centimetres stay in the same cell');
    // Across the prime meridian or the equator only the whole world holds an extent.
    assert.equal(extentCell([-0.001, 51, 0.001, 51.1]), ROOT);
    assert.equal(extentCell([10, -0.5, 11, 0.5]), ROOT);
    assert.equal(extentCell([-180, -90, 180, 90]), ROOT);
    // Germany lies inside the cell of the eastern half, northern half (level 1) but none of level 3.
    const germany = extentCell([5.87, 47.27, 15.04, 55.06])!;
    assert.ok(germany > ROOT && germany < 2 * ROOT, 'inside the eastern half of the world');
    assert.equal(extentCell(null), null);
    assert.equal(extentCell(undefined), null);
  });

  it('clamps positions outside the world to its edge', () => {
    assert.equal(extentCell([180, 90, 180, 90]), extentCell([190, 95, 190, 95]));
    assert.equal(extentCell([-180, -90, -180, -90]), extentCell([-200, -91, -200, -91]));
  });

  it('asks for the cell of every extent that meets a window, whatever their sizes', () => {
    const next = random(20261128);
    let met = 0;
    for (let i = 0; i < 400; i++) {
      const window = someBox(next);
      const query = windowCells([window]);
      for (let j = 0; j < 50; j++) {
        // Half of them near the window, so that many meet it.
        const extent = j % 2 ? someBox(next) : nearBox(window, next);
        if (!meets(extent, window)) continue;
        met++;
        assert.ok(asks(query, extentCell(extent)!), `window ${window.join(',')} misses extent ${extent.join(',')}`);
      }
      // An extent touching the window only at its corner is found too.
      const corner: Extent = [window[2], window[3], Math.min(180, window[2] + 1), Math.min(90, window[3] + 1)];
      assert.ok(asks(query, extentCell(corner)!), `window ${window.join(',')} misses its corner`);
    }
    assert.ok(met > 1000, `only ${met} extents met a window: the sample must be larger`);
  });

  it('asks for few keys, and for little of the world outside a small window', () => {
    const next = random(7);
    let inside = 0;
    let asked = 0;
    for (let i = 0; i < 200; i++) {
      const w = [5 + next() * 9, 47 + next() * 7] as const;
      const window: Extent = [w[0], w[1], w[0] + 0.5, w[1] + 0.4];
      const query = windowCells([window]);
      assert.ok(query.ranges.length <= 25, `${query.ranges.length} ranges`);
      assert.ok(query.keys.length <= 4 * CELL_LEVELS, `${query.keys.length} keys`);
      for (let j = 0; j < 200; j++) {
        const p = [window[0] - 0.5 + next() * 1.5, window[1] - 0.4 + next() * 1.2];
        const cell = extentCell([p[0], p[1], p[0], p[1]])!;
        if (!asks(query, cell)) continue;
        asked++;
        if (meets([p[0], p[1], p[0], p[1]], window)) inside++;
      }
    }
    // Points spread over nine times the window's area: the cover asks for at most a few of the
    // outside ones (cells are at least a quarter of the window wide).
    assert.ok(asked > 0 && inside / asked > 0.3, `${inside} of ${asked} asked points were in the window`);
  });

  it('covers both halves of a window across the antimeridian', () => {
    const query = windowCells([
      [170, -10, 180, 10],
      [-180, -10, -170, 10],
    ]);
    assert.ok(asks(query, extentCell([179, 1, 179, 1])!));
    assert.ok(asks(query, extentCell([-179, 1, -179, 1])!));
    assert.ok(!asks(query, extentCell([0.5, 1, 0.5, 1])!));
    assert.ok(asks(query, extentCell([-180, -5, 180, 5])!), 'an extent widened across the antimeridian is the root cell');
  });

  it('merges ranges and never asks for a key twice', () => {
    const query = windowCells([[6, 48, 9, 50]]);
    for (let i = 1; i < query.ranges.length; i++) assert.ok(query.ranges[i][0] > query.ranges[i - 1][1] + 2, 'ranges apart');
    assert.equal(new Set(query.keys).size, query.keys.length);
    for (const k of query.keys) assert.ok(!query.ranges.some(([lo, hi]) => k >= lo && k <= hi), 'a key outside the ranges');
    assert.ok(query.keys.includes(ROOT));
  });
});

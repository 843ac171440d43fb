import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { resolveCrs } from './crs-resolver';
import { CrsTransform } from './crs-transform';

/**
 * reproject agrees with PROJ's cs2cs to 1 mm (1e-8 degrees, about 1 mm on the ground) for every
 * built-in pair on points across Germany. cs2cs must be installed (Debian: proj-bin); without it
 * this suite fails rather than skipping, so CI cannot pass without the check.
 */

/** Longitude, latitude (WGS 84) of places spread over Germany. */
const PLACES: Array<[number, number]> = [
  [13.405, 52.52], // Berlin
  [11.5761, 48.1371], // München
  [9.9937, 53.5511], // Hamburg
  [6.9603, 50.9375], // Köln
  [8.6821, 50.1109], // Frankfurt am Main
  [13.7373, 51.0504], // Dresden
  [7.8421, 47.999], // Freiburg im Breisgau
  [10.1228, 54.3233], // Kiel
  [13.4319, 48.5667], // Passau
  [6.0839, 50.7753], // Aachen
  [14.9833, 51.15], // Görlitz
];

/** CRSs whose EPSG axis order, as cs2cs reads and writes them, is north first. */
const NORTH_FIRST = new Set([4326, 4258, 3035, 31466, 31467, 31468, 31469]);
const GEOGRAPHIC = new Set([4326, 4258]);

function cs2cs(from: number, to: number, points: Array<[number, number]>): Promise<Array<[number, number]>> {
  const swapIn = NORTH_FIRST.has(from);
  const swapOut = NORTH_FIRST.has(to);
  const input = points.map(([x, y]) => (swapIn ? `${y} ${x}` : `${x} ${y}`)).join('\n') + '\n';
  return new Promise((resolve, reject) => {
    const child = execFile('cs2cs', ['-f', '%.9f', `EPSG:${from}`, `EPSG:${to}`], (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(
          new Error(
            missing
              ? 'cs2cs (PROJ) is not installed, so reprojection cannot be checked against PROJ. Install it: apt-get install proj-bin'
              : `cs2cs EPSG:${from} EPSG:${to} failed: ${stderr || error.message}`,
          ),
        );
        return;
      }
      const rows = stdout
        .trim()
        .split('\n')
        .map((line) => line.trim().split(/\s+/).slice(0, 2).map(Number) as [number, number]);
      resolve(rows.map(([a, b]) => (swapOut ? [b, a] : [a, b])));
    });
    child.stdin!.end(input);
  });
}

/** The places in EPSG:`code`, as cs2cs computes them. */
const placesIn = (code: number) => (code === 4326 ? Promise.resolve(PLACES) : cs2cs(4326, code, PLACES));

async function assertAgrees(from: number, to: number) {
  const points = await placesIn(from);
  const expected = await cs2cs(from, to, points);
  const transform = new CrsTransform(await resolveCrs(`EPSG:${from}`), await resolveCrs(`EPSG:${to}`));
  const tolerance = GEOGRAPHIC.has(to) ? 1e-8 : 0.001;
  points.forEach(([x, y], i) => {
    const [u, v] = transform.position(x, y);
    const [eu, ev] = expected[i];
    const delta = Math.max(Math.abs(u - eu), Math.abs(v - ev));
    assert.ok(
      delta <= tolerance,
      `EPSG:${from} → EPSG:${to}, point ${i} (${x}, ${y}): got (${u}, ${v}), cs2cs (${eu}, ${ev}), Δ ${delta}`,
    );
  });
}

const PAIRS: Array<[number, number]> = [
  [25832, 4326],
  [4326, 25832],
  [25833, 4326],
  [4326, 25833],
  [25832, 25833],
  [25833, 4258],
  [4258, 25832],
  [3857, 4326],
  [4326, 3857],
  [3035, 4326],
  [4326, 3035],
  [3035, 25832],
  [31466, 25832],
  [31467, 25832],
  [25832, 31467],
  [31468, 25833],
  [31469, 25833],
  [31467, 4326],
  [4326, 31468],
  [31467, 31468],
];

describe('geodata reproject: agreement with PROJ cs2cs (1 mm)', function () {
  this.timeout(20_000);

  before(async () => {
    await cs2cs(4326, 4326, [[10, 50]]);
  });

  for (const [from, to] of PAIRS) {
    it(`EPSG:${from} → EPSG:${to} agrees with cs2cs on places across Germany`, () => assertAgrees(from, to));
  }

  it('a code that is not built in (EPSG:2056, Swiss LV95) is looked up in PROJ and agrees with cs2cs on the Helmert shift', async () => {
    const bern: Array<[number, number]> = [[7.4386, 46.9511]];
    const transform = new CrsTransform(await resolveCrs('EPSG:4326'), await resolveCrs('EPSG:2056'));
    const [u, v] = transform.position(...bern[0]);
    // The reference is PROJ's own transformation between the two codes, not our definition of 2056.
    const [reference] = await cs2cs(4326, 2056, bern);
    assert.ok(Math.abs(u - reference[0]) <= 0.001 && Math.abs(v - reference[1]) <= 0.001, `${u},${v} vs ${reference}`);
    assert.ok(Math.abs(u - 2_600_000) < 1000 && Math.abs(v - 1_200_000) < 1000, 'Bern lies near the LV95 origin');
  });
});

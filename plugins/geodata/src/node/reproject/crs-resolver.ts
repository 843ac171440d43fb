import { execFile } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import proj4 from 'proj4';
import { BUILT_IN_CRS, DHDN_GRID, epsgCode, GAUSS_KRUEGER_CODES, withDhdnGrid } from './crs-definitions';
import { failure } from './reproject-errors';

/** A CRS reproject can use: its PROJ string and, when a datum grid is installed, the grid variant. */
export interface ResolvedCrs {
  /** `EPSG:<code>`, the name messages use. */
  name: string;
  /** The PROJ string (east, north axis order), with Helmert parameters for the datum shift. */
  definition: string;
  /** The PROJ string with an installed NTv2 grid, used for positions inside `gridBounds`. */
  gridDefinition?: string;
  /** West, south, east, north in degrees (WGS 84) of the grid. */
  gridBounds?: [number, number, number, number];
  /** Longitude, latitude in degrees rather than metres. */
  geographic: boolean;
}

/** Where PROJ keeps its data (grids): PROJ_DATA, PROJ_LIB, then Debian's and a local install's folder. */
export function projDataDirs(): string[] {
  const env = [process.env.PROJ_DATA, process.env.PROJ_LIB].flatMap((v) => (v ? v.split(path.delimiter) : []));
  return [...env, '/usr/share/proj', '/usr/local/share/proj'];
}

const resolved = new Map<number, Promise<ResolvedCrs>>();
const grids = new Map<string, Promise<[number, number, number, number] | undefined>>();

/**
 * The CRS `name` stands for (EPSG:<code>, an OGC URN or URL, CRS84). Built-in codes
 * (BUILT_IN_CRS) need nothing installed; any other EPSG code is looked up once in the installed
 * PROJ database by running `projinfo EPSG:<code> -o PROJ -q` (no shell; the code is digits only)
 * and cached for the process. Throws `crs_invalid` for a name that is no EPSG code,
 * `crs_unknown` when PROJ does not know the code (or projinfo is not installed) and
 * `crs_unsupported` when the CRS cannot be written as a PROJ string proj4 understands.
 */
export function resolveCrs(name: string): Promise<ResolvedCrs> {
  const code = epsgCode(name);
  if (code === undefined) return Promise.reject(failure('crs_invalid', { crs: name }));
  let result = resolved.get(code);
  if (!result) {
    result = load(code);
    resolved.set(code, result);
    // A failed look-up is not cached: installing proj-bin or proj-data must not need a restart.
    result.catch(() => resolved.delete(code));
  }
  return result;
}

async function load(code: number): Promise<ResolvedCrs> {
  const name = `EPSG:${code}`;
  const builtIn = BUILT_IN_CRS[code];
  const definition = builtIn ?? (await projinfo(code));
  const crs: ResolvedCrs = { name, definition, geographic: /\+proj=longlat\b/.test(definition) };
  try {
    proj4(definition.replace(/\+nadgrids=\S+/, ''), 'EPSG:4326');
  } catch {
    throw failure('crs_unsupported', { crs: name, definition });
  }
  if (GAUSS_KRUEGER_CODES.includes(code)) {
    const bounds = await loadGrid(DHDN_GRID);
    if (bounds) Object.assign(crs, { gridDefinition: withDhdnGrid(definition), gridBounds: bounds });
  } else if (!builtIn) {
    await loadProjinfoGrids(crs);
  }
  return crs;
}

/** The PROJ string PROJ writes for EPSG:<code>, without `+type=crs`. */
function projinfo(code: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('projinfo', [`EPSG:${code}`, '-o', 'PROJ', '-q'], { timeout: 15_000 }, (error, stdout) => {
      const text = String(stdout).trim();
      const crs = `EPSG:${code}`;
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(failure(missing ? 'crs_lookup_unavailable' : 'crs_unknown', { crs, builtIn: builtInList() }));
        return;
      }
      // Vertical and compound CRSs have no horizontal PROJ string proj4 could use.
      if (!text.startsWith('+proj=') || text.includes('+proj=pipeline')) {
        reject(failure('crs_unsupported', { crs, definition: text }));
        return;
      }
      resolve(text.replace(/\s*\+type=crs\b/, ''));
    });
  });
}

/** Grids named by a definition from PROJ: NTv2 (.gsb) ones are loaded; a missing mandatory one fails. */
async function loadProjinfoGrids(crs: ResolvedCrs): Promise<void> {
  const names = /\+nadgrids=(\S+)/.exec(crs.definition)?.[1].split(',') ?? [];
  for (const entry of names) {
    const optional = entry.startsWith('@');
    const grid = optional ? entry.slice(1) : entry;
    if (grid === 'null') continue;
    const bounds = grid.endsWith('.gsb') ? await loadGrid(grid) : undefined;
    if (!bounds && !optional) throw failure('grid_missing', { crs: crs.name, grid });
  }
}

/** Registers the installed NTv2 grid `file` with proj4 (once); its bounds, or undefined when not installed. */
function loadGrid(file: string): Promise<[number, number, number, number] | undefined> {
  let result = grids.get(file);
  if (!result) {
    result = findGrid(file);
    grids.set(file, result);
  }
  return result;
}

async function findGrid(file: string): Promise<[number, number, number, number] | undefined> {
  for (const dir of projDataDirs()) {
    const full = path.join(dir, file);
    if (
      !(await access(full).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const data = await readFile(full);
    const grid = proj4.nadgrid(file, data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer);
    // NTv2 counts longitude positive west; proj4 keeps that (ll[0] is the eastern edge, negated).
    const deg = (rad: number) => (rad * 180) / Math.PI;
    let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const sub of grid.subgrids) {
      const west = -(sub.ll[0] + (sub.lim[0] - 1) * sub.del[0]);
      const east = -sub.ll[0];
      [w, e] = [Math.min(w, deg(west)), Math.max(e, deg(east))];
      [s, n] = [Math.min(s, deg(sub.ll[1])), Math.max(n, deg(sub.ll[1] + (sub.lim[1] - 1) * sub.del[1]))];
    }
    return [w, s, e, n];
  }
  return undefined;
}

/** The built-in codes, for messages: "EPSG:4326, EPSG:3857, …". */
export function builtInList(): string {
  return Object.keys(BUILT_IN_CRS)
    .map((c) => `EPSG:${c}`)
    .join(', ');
}

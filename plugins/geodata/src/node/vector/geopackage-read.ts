import type { Database, SqlValue } from 'sql.js';
import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import { readGpkgGeometry } from './gpkg-geometry';
import { crsOfWkt } from './prj-crs';
import { quoted, sqlite } from './sqlite';
import { CHUNK, failure, yieldToLoop } from './vector-params';
import { declaredCrs, toWgs84, type VectorSettings } from './vector-settings';
import { pickLayers, tagLayer } from './layer-choice';

/** A feature table of a GeoPackage, as gpkg_contents and gpkg_geometry_columns declare it. */
interface GpkgLayer {
  layer: string;
  geometryColumn: string;
  srsId: number;
}

const SQLITE_MAGIC = 'SQLite format 3\0';

/**
 * The features of a GeoPackage held in memory (sql.js): the feature tables of gpkg_contents
 * (data_type 'features'), all or the one the layer setting names (decision 0022), each row a
 * feature with its integer primary key as id, its geometry from the GeoPackage blob and the other
 * columns as properties (blobs left out, BOOLEAN columns as true/false). The CRS is the layer's srs in gpkg_spatial_ref_sys.
 * Throws `gpkg_invalid`, `layer_missing`, `gpkg_geometry_broken` (with the feature index) and
 * `prj_crs_unknown`.
 */
export async function readGeoPackage(bytes: Buffer, settings: VectorSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  if (bytes.subarray(0, 16).toString('latin1') !== SQLITE_MAGIC) throw failure('gpkg_invalid', { reason: 'not an SQLite file' });
  const SQL = await sqlite();
  let db: Database;
  try {
    db = new SQL.Database(bytes);
  } catch (e) {
    throw failure('gpkg_invalid', { reason: (e as Error).message });
  }
  try {
    onlyStoredTables(db, GPKG_TABLES);
    const layers = layersOf(db);
    const chosen = pickLayers(layers, settings, ctx);
    onlyStoredTables(
      db,
      chosen.map((l) => l.layer),
    );
    const features: FrameItems = [];
    for (const [i, layer] of chosen.entries()) {
      const sub = { ...ctx, progress: (f: number) => ctx.progress((i + f) / chosen.length) };
      const crs = await declaredCrs(settings, () => crsOf(db, layer));
      const read = await toWgs84(await readLayer(db, layer, sub), crs, settings, sub);
      for (const item of read) features.push(chosen.length > 1 ? tagLayer(item, layer.layer) : item);
    }
    return features;
  } finally {
    db.close();
  }
}

/** The GeoPackage tables the reader queries before it knows the layers. */
const GPKG_TABLES = ['gpkg_contents', 'gpkg_geometry_columns', 'gpkg_spatial_ref_sys'];

/**
 * Refuses a file whose tables the reader would query are views or hold generated columns: their
 * SQL is the file author's and would run here, synchronously and without a time limit (a
 * recursive view can hold the server for as long as it likes). GeoPackage feature tables are
 * plain tables (OGC 12-128r18 §2.1.6), so real files pass. Missing tables are left to the queries.
 */
function onlyStoredTables(db: Database, names: string[]): void {
  for (const name of names) {
    const [entry] = rows(db, `SELECT type FROM sqlite_master WHERE name = ? COLLATE NOCASE`, [name]);
    if (!entry) continue;
    if (entry.type !== 'table') throw failure('gpkg_invalid', { reason: `"${name}" is a ${String(entry.type)}, not a table` });
    const computed = rows(db, `SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3)`, [name]);
    if (computed.length)
      throw failure('gpkg_invalid', {
        reason: `"${name}" has generated columns (${computed.map((c) => String(c.name)).join(', ')})`,
      });
  }
}

function rows(db: Database, sql: string, params: SqlValue[] = []): Array<Record<string, SqlValue>> {
  const statement = db.prepare(sql, params);
  const result: Array<Record<string, SqlValue>> = [];
  try {
    while (statement.step()) result.push(statement.getAsObject());
  } finally {
    statement.free();
  }
  return result;
}

function layersOf(db: Database): GpkgLayer[] {
  try {
    return rows(
      db,
      `SELECT c.table_name AS layer, g.column_name AS geometry, g.srs_id AS srs FROM gpkg_contents c
       JOIN gpkg_geometry_columns g ON g.table_name = c.table_name WHERE c.data_type = 'features' ORDER BY c.rowid`,
    ).map((r) => ({ layer: String(r.layer), geometryColumn: String(r.geometry), srsId: Number(r.srs) }));
  } catch (e) {
    throw failure('gpkg_invalid', { reason: (e as Error).message });
  }
}

/** `EPSG:<code>` of the layer's srs, undefined for the undefined systems (srs_id 0 and -1). */
async function crsOf(db: Database, layer: GpkgLayer): Promise<string | undefined> {
  const [srs] = rows(db, 'SELECT organization, organization_coordsys_id, definition FROM gpkg_spatial_ref_sys WHERE srs_id = ?', [
    layer.srsId,
  ]);
  if (!srs || layer.srsId === 0 || layer.srsId === -1) return undefined;
  if (String(srs.organization).toUpperCase() === 'EPSG') return `EPSG:${srs.organization_coordsys_id}`;
  return crsOfWkt(String(srs.definition ?? ''));
}

async function readLayer(db: Database, layer: GpkgLayer, ctx: FunctionRunContext): Promise<FrameItems> {
  const table = quoted(layer.layer);
  const info = rows(db, `PRAGMA table_info(${table})`);
  const pk = info.find((c) => Number(c.pk) === 1 && /^integer$/i.test(String(c.type)));
  const booleans = new Set(info.filter((c) => /^boolean$/i.test(String(c.type))).map((c) => String(c.name)));
  const total = Number(rows(db, `SELECT count(*) AS n FROM ${table}`)[0]?.n ?? 0);
  const statement = db.prepare(`SELECT * FROM ${table}`);
  const features: FrameItems = [];
  try {
    for (let index = 0; statement.step(); index++) {
      const row = statement.getAsObject();
      const properties: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(row)) {
        if (column === layer.geometryColumn || column === pk?.name || value instanceof Uint8Array) continue;
        properties[column] = booleans.has(column) && typeof value === 'number' ? value !== 0 : value;
      }
      const feature: Record<string, unknown> = {
        type: 'Feature',
        geometry: geometryOf(row[layer.geometryColumn], index),
        properties,
      };
      if (pk) feature.id = row[String(pk.name)];
      features.push({ feature });
      if ((index + 1) % CHUNK === 0) {
        ctx.progress((index + 1) / Math.max(1, total));
        await yieldToLoop(ctx);
      }
    }
  } finally {
    statement.free();
  }
  ctx.progress(1);
  return features;
}

function geometryOf(value: SqlValue | undefined, index: number): unknown {
  if (value === null || value === undefined) return null;
  if (!(value instanceof Uint8Array)) throw failure('gpkg_geometry_broken', { index, reason: 'the geometry is no blob' });
  try {
    return readGpkgGeometry(value);
  } catch (e) {
    throw failure('gpkg_geometry_broken', { index, reason: (e as Error).message });
  }
}

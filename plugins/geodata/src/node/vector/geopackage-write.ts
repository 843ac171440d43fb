import type { Database, SqlValue } from 'sql.js';
import type { FunctionRunContext } from '@werkbank/sdk/node';
import { envelopeOf, hasZ, writeWkb } from './wkb-write';
import { quoted, sqlite } from './sqlite';
import { CHUNK, yieldToLoop } from './vector-params';
import type { GpkgSrs } from './gpkg-srs';

type Geometry = Parameters<typeof writeWkb>[0];

/** A feature as geopackage export writes it (checked before). */
export interface WritableFeature {
  id?: unknown;
  geometry: Geometry | null;
  properties: Record<string, unknown>;
}

/** The SQL type of an attribute column, from the values of its features. */
type ColumnType = 'INTEGER' | 'REAL' | 'BOOLEAN' | 'TEXT';

const GPKG_APPLICATION_ID = 0x47504b47; // 'GPKG'
const GPKG_VERSION = 10300; // 1.3.0

/** The tables and rows every GeoPackage 1.3 has (§1.1.2, §1.1.3, Annex C), with the three required SRSs. */
const SCHEMA = `
CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY, organization TEXT NOT NULL,
  organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
  description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
  CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL, geometry_type_name TEXT NOT NULL,
  srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
  CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
  CONSTRAINT uk_gc_table_name UNIQUE (table_name),
  CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
  CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', 'undefined cartesian coordinate reference system');
INSERT INTO gpkg_spatial_ref_sys VALUES ('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', 'undefined geographic coordinate reference system');
INSERT INTO gpkg_spatial_ref_sys VALUES ('WGS 84 geodetic', 4326, 'EPSG', 4326,
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]',
  'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid');
`;

/**
 * The bytes of a GeoPackage 1.3 file (decision 0022) with one feature table `layer` in the CRS
 * `srs` (EPSG:4326 when not given; decision 0035):
 * primary key `fid` (the features' ids when they are distinct positive integers), geometry column
 * `geom` typed by the geometries (GEOMETRY when mixed, Z when any has heights) and one column per
 * property, typed from its values (INTEGER, REAL, BOOLEAN, else TEXT; objects and lists as JSON).
 * Rows are inserted in one transaction with abort checks between chunks.
 */
export async function writeGeoPackage(
  features: WritableFeature[],
  layer: string,
  ctx: FunctionRunContext,
  srs?: GpkgSrs,
): Promise<Uint8Array> {
  const SQL = await sqlite();
  const db = new SQL.Database();
  const srsId = srs?.srs_id ?? 4326;
  try {
    db.run(`PRAGMA application_id = ${GPKG_APPLICATION_ID}; PRAGMA user_version = ${GPKG_VERSION};`);
    db.run(SCHEMA);
    if (srs && srsId !== 4326) {
      db.run('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, NULL)', [
        srs.srs_name,
        srs.srs_id,
        srs.organization,
        srs.organization_coordsys_id,
        srs.definition,
      ]);
    }
    const columns = columnsOf(features);
    const geometries = features.map((f) => f.geometry).filter((g): g is Geometry => !!g);
    const types = new Set(geometries.map((g) => g.type));
    const z = geometries.some(hasZ);
    const typeName = types.size === 1 ? [...types][0].toUpperCase() : 'GEOMETRY';
    const table = quoted(layer);
    const columnSql = columns.map((c) => `, ${quoted(c.column)} ${c.type}`).join('');
    db.run(`CREATE TABLE ${table} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom ${typeName}${columnSql})`);
    const extent = geometries.map(envelopeOf).reduce(union, undefined);
    db.run(
      'INSERT INTO gpkg_contents (table_name, data_type, identifier, min_x, min_y, max_x, max_y, srs_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [layer, 'features', layer, ...(extent ?? [null, null, null, null]), srsId],
    );
    db.run('INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, ?, 0)', [layer, 'geom', typeName, srsId, z ? 2 : 0]);
    await insertRows(db, table, features, columns, z, ctx);
    return db.export();
  } finally {
    db.close();
  }
}

async function insertRows(
  db: Database,
  table: string,
  features: WritableFeature[],
  columns: Array<{ property: string; column: string; type: ColumnType }>,
  z: boolean,
  ctx: FunctionRunContext,
): Promise<void> {
  const ids = features.map((f) => f.id);
  const keepIds = ids.every((id) => Number.isSafeInteger(id) && (id as number) > 0) && new Set(ids).size === ids.length;
  const names = ['fid', 'geom', ...columns.map((c) => c.column)].map(quoted).join(', ');
  const statement = db.prepare(`INSERT INTO ${table} (${names}) VALUES (${['?', '?', ...columns.map(() => '?')].join(', ')})`);
  db.run('BEGIN');
  try {
    for (const [i, f] of features.entries()) {
      const values: SqlValue[] = [keepIds ? (f.id as number) : null, f.geometry ? geometryBlob(f.geometry, z) : null];
      for (const c of columns) values.push(sqlValue(f.properties[c.property], c.type));
      statement.run(values);
      if ((i + 1) % CHUNK === 0) {
        ctx.progress((0.9 * (i + 1)) / features.length);
        await yieldToLoop(ctx);
      }
    }
    db.run('COMMIT');
  } finally {
    statement.free();
  }
}

/** A GeoPackage geometry blob: header 'GP', version 0, little endian, xy envelope (none for points), srs 4326, WKB. */
function geometryBlob(geometry: Geometry, z: boolean): Uint8Array {
  const envelope = geometry.type === 'Point' ? undefined : envelopeOf(geometry);
  const header = Buffer.alloc(8 + (envelope ? 32 : 0));
  header.write('GP', 0, 'latin1');
  header.writeUInt8(0, 2);
  header.writeUInt8(1 | (envelope ? 0x02 : 0) | (geometry.type !== 'Point' && !envelope ? 0x10 : 0), 3);
  header.writeInt32LE(4326, 4);
  if (envelope) [envelope[0], envelope[2], envelope[1], envelope[3]].forEach((v, i) => header.writeDoubleLE(v, 8 + 8 * i));
  return Buffer.concat([header, writeWkb(geometry, z)]);
}

function union(a: number[] | undefined, b: number[] | undefined): number[] | undefined {
  if (!a) return b;
  if (!b) return a;
  return [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
}

/** The attribute columns: every property in order of first appearance, typed from its non-null values. */
function columnsOf(features: WritableFeature[]): Array<{ property: string; column: string; type: ColumnType }> {
  const types = new Map<string, Set<ColumnType>>();
  for (const f of features) {
    for (const [key, value] of Object.entries(f.properties)) {
      const set = types.get(key) ?? new Set();
      if (value !== null && value !== undefined) set.add(typeOf(value));
      types.set(key, set);
    }
  }
  const taken = new Set(['fid', 'geom']);
  return [...types].map(([property, set]) => {
    let column = property;
    for (let n = 1; taken.has(column.toLowerCase()); n++) column = `${property}_${n}`;
    taken.add(column.toLowerCase());
    const kinds = [...set];
    const type: ColumnType =
      kinds.length === 0
        ? 'TEXT'
        : kinds.length === 1
          ? kinds[0]
          : kinds.every((k) => k === 'INTEGER' || k === 'REAL')
            ? 'REAL'
            : 'TEXT';
    return { property, column, type };
  });
}

function typeOf(value: unknown): ColumnType {
  if (typeof value === 'boolean') return 'BOOLEAN';
  if (typeof value === 'number') return Number.isInteger(value) ? 'INTEGER' : 'REAL';
  return 'TEXT';
}

function sqlValue(value: unknown, type: ColumnType): SqlValue {
  if (value === null || value === undefined) return null;
  if (type === 'BOOLEAN') return value ? 1 : 0;
  if (type === 'TEXT') return typeof value === 'string' ? value : JSON.stringify(value);
  return value as number;
}

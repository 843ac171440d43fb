import * as shapefile from 'shapefile';
import type { FrameItems, FunctionRunContext } from '@werkbank/sdk/node';
import type { ZipEntry } from '../sources/zip-inspection';
import { openZip, type ZipArchive } from './zip-read';
import { crsOfWkt } from './prj-crs';
import { CHUNK, failure, yieldToLoop } from './vector-params';
import { declaredCrs, needsSourceCrs, VECTOR_ENCODINGS, toWgs84, type VectorSettings } from './vector-settings';
import { pickLayers, tagLayer } from './layer-choice';

/** Largest .shp or .dbf extracted from an archive (the zip inspection bounds the archive as a whole). */
export const MAX_SHAPEFILE_PART = 512 * 1024 * 1024;

/** The files of one Shapefile inside an archive, by lower-case extension (shp, shx, dbf, prj, cpg). */
interface ShapefileParts {
  layer: string;
  parts: Map<string, ZipEntry>;
}

/**
 * The features of a zipped Shapefile (or several in one archive: a layer is one base name). The
 * archive is inspected before anything is extracted; entries are inflated in memory with a byte
 * limit. Attributes are decoded in the encoding setting, else the one the .cpg names, else UTF-8.
 * The CRS comes from the .prj (crs setting first), features are reprojected as the settings say.
 * Throws `shp_missing`, `dbf_missing`, `layer_missing`, `shp_broken` (with the feature index) and
 * `prj_crs_unknown`.
 */
export async function readZippedShapefile(zip: Buffer, settings: VectorSettings, ctx: FunctionRunContext): Promise<FrameItems> {
  const archive = openZip(zip);
  const layers = shapefilesOf(archive.entries);
  if (!layers.length) throw failure('shp_missing');
  const chosen = pickLayers(layers, settings, ctx);
  const features: FrameItems = [];
  for (const [i, layer] of chosen.entries()) {
    const sub = { ...ctx, progress: (f: number) => ctx.progress((i + f) / chosen.length) };
    const read = await readLayer(archive, layer, settings, sub);
    for (const item of read) features.push(chosen.length > 1 ? tagLayer(item, layer.layer) : item);
  }
  return features;
}

/** The Shapefiles of an archive, in archive order, grouped by their path without extension. */
function shapefilesOf(entries: ZipEntry[]): ShapefileParts[] {
  const byBase = new Map<string, ShapefileParts>();
  for (const entry of entries) {
    const match = /^(.*?)([^/]+)\.(shp|shx|dbf|prj|cpg)$/i.exec(entry.name);
    if (entry.directory || !match || match[1].startsWith('__MACOSX/')) continue;
    const key = match[1] + match[2];
    const group = byBase.get(key) ?? { layer: match[2], parts: new Map() };
    group.parts.set(match[3].toLowerCase(), entry);
    byBase.set(key, group);
  }
  return [...byBase.values()].filter((g) => g.parts.has('shp'));
}

async function readLayer(archive: ZipArchive, layer: ShapefileParts, settings: VectorSettings, ctx: FunctionRunContext) {
  const dbfEntry = layer.parts.get('dbf');
  if (!dbfEntry) throw failure('dbf_missing', { layer: layer.layer });
  const text = async (ext: string) => {
    const entry = layer.parts.get(ext);
    return entry ? (await archive.extract(entry, 64 * 1024)).toString('latin1').trim() : '';
  };
  const shp = await archive.extract(layer.parts.get('shp')!, MAX_SHAPEFILE_PART);
  const dbf = await archive.extract(dbfEntry, MAX_SHAPEFILE_PART);
  if (shp.length < 100 || shp.readInt32BE(0) !== 9994) throw failure('shp_invalid', { layer: layer.layer });
  const encoding = settings.encoding || encodingOfCpg(await text('cpg')) || 'utf-8';
  const prj = await text('prj');
  const crs = await declaredCrs(settings, async () => (prj ? crsOfWkt(prj) : undefined));
  if (needsSourceCrs(settings) && !prj) ctx.log(`${layer.layer}: no .prj, the CRS is unknown and coordinates stay as they are`);
  const features = await readRecords(shp, dbf, encoding, layer.layer, ctx);
  return toWgs84(features, crs, settings, ctx);
}

/** The records as feature datums, read one by one (shapefile's streaming source). */
async function readRecords(shp: Buffer, dbf: Buffer, encoding: string, layer: string, ctx: FunctionRunContext) {
  const features: FrameItems = [];
  // The .dbf header declares the number of records (dBASE: uint32 at byte 4), for progress.
  const records = dbf.length >= 8 ? dbf.readUInt32LE(4) : 0;
  let index = 0;
  try {
    const source = await shapefile.open(shp, dbf, { encoding });
    for (;;) {
      const record = await source.read();
      if (record.done) break;
      features.push({ feature: record.value as unknown as Record<string, unknown> });
      index++;
      if (index % CHUNK === 0) {
        ctx.progress(Math.min(0.99, index / Math.max(1, records)));
        await yieldToLoop(ctx);
      }
    }
  } catch (e) {
    ctx.signal.throwIfAborted();
    throw failure('shp_broken', { layer, index, reason: e instanceof Error ? e.message : String(e) });
  }
  ctx.progress(1);
  return features;
}

/** The encoding a .cpg names, as one of the vector encodings; undefined for none or another one. */
export function encodingOfCpg(cpg: string): string | undefined {
  const name = cpg.trim().toLowerCase().replace(/[\s_]/g, '-');
  if (/^(utf-?8)$/.test(name)) return 'utf-8';
  if (/^((cp|windows-?)?1252|ansi-1252)$/.test(name)) return 'windows-1252';
  if (/^(iso-?8859-?1|8859-?1|88591|latin-?1)$/.test(name)) return 'iso-8859-1';
  return VECTOR_ENCODINGS.find((e) => e === name);
}

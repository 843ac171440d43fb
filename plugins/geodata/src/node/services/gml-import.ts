import type { FrameItems, FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { decodeText } from '../sources/download-text';
import { append, named, part } from '../source-items';
import { geoJsonSettings } from '../vector/geojson-import';
import { readBytes } from '../vector/file-import';
import { failure, itemsOf } from '../vector/vector-params';
import { gmlFeatureItems, type CrsSettings } from './gml-axis';
import { readGml } from './gml-read';
import { servicesFailure } from './services-failure';
import { typeAttributes } from './gml-attribute-types';
import { readGmlSchema, schemaFileNames, type GmlSchema } from './gml-schema';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** Largest GML file or text gml.import reads (it is parsed in memory). */
export const GML_MAX_BYTES = 256 * 1024 * 1024;
/** Most features one GML document may hold. */
export const GML_MAX_FEATURES = 2_000_000;

/**
 * `gml.import`: the features of GML files (through FileAccess, as the running user) or GML texts:
 * GML 2, 3.1 and 3.2 FeatureCollections and WFS answers, axis order by srsName, reprojected to
 * EPSG:4326 with the settings auto_transform and crs (spec 001 §3.4).
 */
export function gmlImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'gml.import',
    version: '1',
    verbose_name: { de: 'GML importieren', en: 'Import GML' },
    doc: {
      de:
        'Liest GML-Dateien (Eingang file) oder GML-Texte (Eingang text) als Features: FeatureCollections in GML 2, 3.1 und 3.2, ' +
        'auch Antworten eines WFS (wfs:FeatureCollection mit featureMember, featureMembers oder wfs:member). Geometrien: Point, LineString, ' +
        'Curve, CompositeCurve, Polygon, Surface, CompositeSurface, Envelope, MultiPoint, MultiLineString/MultiCurve, MultiPolygon/MultiSurface, ' +
        'MultiGeometry; Koordinaten aus pos, ' +
        'posList, coordinates und coord, mit srsName und srsDimension. Die Achsenreihenfolge folgt dem srsName: ' +
        'urn:ogc:def:crs:EPSG::4326 und http://www.opengis.net/def/crs/EPSG/0/4326 schreiben Breite vor Länge, EPSG:4326 Länge vor Breite. ' +
        'Die übrigen Elemente eines Features werden zu Eigenschaften, jede mit einem Typ: liegt im Eingang file das Schema der Datei ' +
        '(.xsd, etwa das, das ogr2ogr neben die GML-Datei schreibt; gefunden über xsi:schemaLocation oder den gleichen Namen), gilt sein Typ ' +
        '(Zahl, Wahrheitswert oder Text); sonst werden Zahlen in üblicher Schreibweise Zahlen, aber eine Eigenschaft, die in einem Feature ' +
        'Text ist, ist es in allen. Führende Nullen (056) bleiben so Text. ' +
        'Einstellungen: auto_transform – nach EPSG:4326 (WGS 84) umprojizieren (Standard: ja); ' +
        'crs – das Bezugssystem der Daten, ersetzt den srsName der Datei. Höchstens 256 MiB je Datei.',
      en:
        'Reads GML files (input file) or GML texts (input text) as features: FeatureCollections in GML 2, 3.1 and 3.2, ' +
        'WFS answers included (wfs:FeatureCollection with featureMember, featureMembers or wfs:member). Geometries: Point, LineString, ' +
        'Curve, CompositeCurve, Polygon, Surface, CompositeSurface, Envelope, MultiPoint, MultiLineString/MultiCurve, MultiPolygon/MultiSurface, ' +
        'MultiGeometry; coordinates from pos, ' +
        'posList, coordinates and coord, with srsName and srsDimension. The axis order follows the srsName: ' +
        'urn:ogc:def:crs:EPSG::4326 and http://www.opengis.net/def/crs/EPSG/0/4326 write latitude before longitude, EPSG:4326 longitude first. ' +
        "A feature's other elements become properties, each with one type: when the file's schema is in the file input " +
        '(.xsd, such as the one ogr2ogr writes next to the GML file; found through xsi:schemaLocation or by the same name), its type ' +
        'applies (number, boolean or text); otherwise numbers in the usual notation become numbers, but a property that is text in one ' +
        'feature is text in all. Leading zeros (056) thus stay text. ' +
        'Settings: auto_transform – reproject to EPSG:4326 (WGS 84) (default: yes); ' +
        "crs – the reference system of the data, replacing the file's srsName. At most 256 MiB per file.",
    },
    inputs: [
      { name: 'file', content_type: 'file', is_optional: true },
      { name: 'text', content_type: 'string', is_optional: true },
      { name: 'auto_transform', content_type: 'bool', is_optional: true, default_value: { value: true } },
      { name: 'crs', content_type: 'string', is_optional: true },
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const settings = geoJsonSettings(inputs);
      const allFiles = itemsOf(inputs, 'file').map((item, index) => ({ item, index }));
      const isSchema = (f: { item: FrameItems[number] }) => /\.xsd$/i.test(String(f.item.value ?? ''));
      const fileItems = allFiles.filter((f) => !isSchema(f));
      const texts = itemsOf(inputs, 'text');
      if (!fileItems.length && !texts.length) throw servicesFailure('no_gml_input');
      const schemas = new Map<string, string>();
      for (const { item, index } of allFiles.filter(isSchema)) {
        const { text, source } = await openXml(files, item, index, ctx);
        schemas.set(source.toLowerCase(), text);
      }
      const total = fileItems.length + texts.length;
      const features: FrameItems = [];
      for (const [i, { item, index }] of fileItems.entries()) {
        const { text, source } = await openXml(files, item, index, ctx);
        const schema = schemaFor(text, source, schemas, ctx);
        append(features, await named(gmlItems(text, source, settings, part(ctx, i, total), schema), source));
      }
      for (const [i, item] of texts.entries()) {
        if (typeof item.value !== 'string') throw failure('not_a_text', { item: `text[${i}]` });
        const source = `text[${i}]`;
        append(features, await named(gmlItems(item.value, source, settings, part(ctx, fileItems.length + i, total)), source));
      }
      ctx.progress(1);
      return { features };
    },
  };
}

/** The feature datums of one GML text (readGml, attributes typed by `schema` or consistently, then gmlFeatureItems). */
export async function gmlItems(
  text: string,
  source: string,
  settings: CrsSettings,
  ctx: FunctionRunContext,
  schema?: GmlSchema,
): Promise<FrameItems> {
  ctx.signal.throwIfAborted();
  const features = await readGml(text, source, GML_MAX_FEATURES, ctx);
  typeAttributes(features, schema);
  ctx.progress(0.5);
  ctx.log(`${source}: ${features.length} features`);
  return gmlFeatureItems(features, settings, ctx);
}

/** The text of file datum `item` (file[index]) and its name; `file_unreadable` when the user may not read it. */
async function openXml(files: FileAccess, item: FrameItems[number], index: number, ctx: FunctionRunContext) {
  let opened;
  try {
    opened = await files.open(ctx.user, item);
  } catch {
    throw failure('file_unreadable', { item: `file[${index}]`, name: String(item.value ?? '') });
  }
  const source = opened.name || `file[${index}]`;
  return { text: xmlText(await readBytes(opened.stream, GML_MAX_BYTES, ctx), source), source };
}

/**
 * The schema of a GML file among the .xsd files of the same input: the one its xsi:schemaLocation
 * names, else the one of the same base name (`orte.gml` → `orte.xsd`); undefined when there is none.
 */
function schemaFor(gml: string, source: string, schemas: Map<string, string>, ctx: FunctionRunContext): GmlSchema | undefined {
  const names = [...schemaFileNames(gml), source.replace(/\.[^.]*$/, '') + '.xsd'].map((n) => n.toLowerCase());
  const name = names.find((n) => schemas.has(n));
  if (!name) return undefined;
  ctx.log(`${source}: ${name}`);
  return readGmlSchema(schemas.get(name)!, name);
}

/** The text of an XML file in the encoding its declaration names (UTF-8 without one). */
function xmlText(bytes: Buffer, source: string): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const encoding = /^\s*<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1] ?? 'utf-8';
  return decodeText(bytes, `application/xml; charset=${encoding}`, source);
}

import type { Readable } from 'node:stream';
import iconv from 'iconv-lite';
import type { FrameItems, FunctionDescriptor, FunctionInputs, FunctionRunContext } from '@werkbank/sdk/node';
import { textSource } from '../tabular/csv-read';
import { readGeoJson } from './geojson-read';
import { append, named, part } from '../source-items';
import { failure, itemsOf } from './vector-params';
import { settingPorts, toWgs84, vectorSettings, type VectorSettings } from './vector-settings';
import { type FileAccess } from '@werkbank/plugin-switchboards/api';

/** The vector import settings of spec 001 §3.4 that apply to GeoJSON texts (GML and WFS use them too). */
export type GeoJsonSettings = Pick<VectorSettings, 'auto_transform' | 'crs'>;

/** auto_transform and crs of `inputs` (see vectorSettings). */
export function geoJsonSettings(inputs: FunctionInputs): GeoJsonSettings {
  const { auto_transform, crs } = vectorSettings(inputs);
  return { auto_transform, crs };
}

/**
 * `geojson.import`: the features of GeoJSON files (read as a stream through FileAccess, with the
 * running user's permissions) or GeoJSON texts, one after the other into one frame of features.
 */
export function geojsonImport(files: FileAccess): FunctionDescriptor {
  return {
    id: 'geojson.import',
    version: '1',
    verbose_name: { de: 'GeoJSON importieren', en: 'Import GeoJSON' },
    doc: {
      de:
        'Liest GeoJSON-Dateien (Eingang file) oder GeoJSON-Texte (Eingang text) als Features: eine FeatureCollection, ' +
        'ein einzelnes Feature oder eine einzelne Geometrie (sie wird zu einem Feature ohne Eigenschaften). ' +
        'Dateien werden als Datenstrom gelesen, Feature für Feature, auch sehr große. ' +
        'Einstellungen: encoding – Zeichenkodierung der Dateien: utf-8 (Standard), windows-1252 ' +
        'oder iso-8859-1 (Texte sind schon dekodiert); auto_transform – Koordinaten in einem anderen Bezugssystem werden nach ' +
        'EPSG:4326 (WGS 84, Länge/Breite) umprojiziert (Standard: ja); das Bezugssystem steht im crs-Mitglied der Datei ' +
        '(z. B. urn:ogc:def:crs:EPSG::25832), ohne crs gilt WGS 84; crs – das Bezugssystem der Daten (z. B. EPSG:25832), ' +
        'ersetzt das crs-Mitglied der Datei. Fehler nennen Zeile und Spalte von fehlerhaftem JSON und die Nummer (ab 0) ' +
        'eines fehlerhaften Features.',
      en:
        'Reads GeoJSON files (input file) or GeoJSON texts (input text) as features: a FeatureCollection, ' +
        'a single Feature or a single geometry (it becomes a feature without properties). ' +
        'Files are read as a stream, feature by feature, however large. ' +
        'Settings: encoding – the character encoding of the files: utf-8 (default), windows-1252 or ' +
        'iso-8859-1 (texts are already decoded); auto_transform – coordinates in another reference system are reprojected to ' +
        'EPSG:4326 (WGS 84, longitude/latitude) (default: yes); the reference system is the crs member of the file ' +
        '(e.g. urn:ogc:def:crs:EPSG::25832), without one WGS 84 applies; crs – the reference system of the data ' +
        '(e.g. EPSG:25832), replacing the crs member of the file. Errors name the line and column of broken JSON and ' +
        'the number (from 0) of a broken feature.',
    },
    inputs: [
      { name: 'file', content_type: 'file', is_optional: true },
      { name: 'text', content_type: 'string', is_optional: true },
      ...settingPorts('encoding', 'auto_transform', 'crs'),
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const settings = vectorSettings(inputs);
      const fileItems = itemsOf(inputs, 'file');
      const texts = itemsOf(inputs, 'text');
      if (!fileItems.length && !texts.length) throw failure('no_geojson_input');
      const total = fileItems.length + texts.length;
      const features: FrameItems = [];
      for (const [i, item] of fileItems.entries()) {
        const sub = part(ctx, i, total);
        let opened;
        try {
          opened = await files.open(ctx.user, item);
        } catch {
          throw failure('file_unreadable', { item: `file[${i}]`, name: String(item.value ?? '') });
        }
        ctx.log(`${opened.name}: ${opened.size} bytes`);
        const source = opened.name || `file[${i}]`;
        const stream = decoded(opened.stream, settings.encoding);
        append(features, await named(readSource(stream, settings, sub, opened.size), source));
      }
      for (const [i, item] of texts.entries()) {
        if (typeof item.value !== 'string') throw failure('not_a_text', { item: `text[${i}]` });
        const sub = part(ctx, fileItems.length + i, total);
        append(features, await named(readSource(textSource(item.value), settings, sub, item.value.length), `text[${i}]`));
      }
      ctx.progress(1);
      return { features };
    },
  };
}

/** The features of one GeoJSON source, reprojected to EPSG:4326 when the settings ask for it. */
async function readSource(
  stream: Readable,
  settings: VectorSettings,
  ctx: FunctionRunContext,
  size: number,
): Promise<FrameItems> {
  const content = await readGeoJson(stream, ctx, size);
  return toWgs84(content.features, content.crs, settings, ctx);
}

/**
 * The file's bytes as text in `encoding` (iconv-lite); UTF-8 bytes go to the parser as they are
 * (it decodes them itself). A read error of the file ends the decoded stream with that error, and
 * the file is closed when the decoded stream closes (also when the parser stops early).
 */
function decoded(bytes: Readable, encoding: string): Readable {
  if (!encoding || encoding === 'utf-8') return bytes;
  const text = iconv.decodeStream(encoding) as unknown as Readable & NodeJS.WritableStream;
  bytes.once('error', (e) => text.destroy(e));
  text.once('close', () => bytes.destroy());
  return bytes.pipe(text);
}

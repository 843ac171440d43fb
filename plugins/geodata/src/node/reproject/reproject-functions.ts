import {
  itemsOf,
  paramOf as sdkParamOf,
  type FrameItems,
  type FunctionContribution,
  type FunctionDescriptor,
  type FunctionInputs,
  type FunctionRunContext,
  type NodeTranslationContribution,
} from '@werkbank/sdk/node';
import en from './i18n/en.json' with { type: 'json' };
import de from './i18n/de.json' with { type: 'json' };
import { resolveCrs } from './crs-resolver';
import { CrsTransform } from './crs-transform';
import { reprojectFeature } from './reproject-geometry';
import { failure } from './reproject-errors';

/** Features reprojected between two checks of the abort signal (and progress reports). */
export const CHUNK = 500;

/** GeoJSON's own CRS (RFC 7946 §4): the default of both CRS ports. */
const WGS84 = 'EPSG:4326';

const crsDoc = {
  de:
    'Eingebaut sind EPSG:4326, 4258, 3857, 25832, 25833, 3035 und Gauß-Krüger 31466–31469 (DHDN, mit dem BETA2007-Gitter, wenn PROJ es installiert hat, sonst mit den Helmert-Parametern von PROJ). ' +
    'Jeden anderen EPSG-Code schlägt der Server einmal in der installierten PROJ-Datenbank nach (projinfo). Schreibweisen: EPSG:25832, 25832, urn:ogc:def:crs:EPSG::25832, CRS84.',
  en:
    'Built in are EPSG:4326, 4258, 3857, 25832, 25833, 3035 and Gauss-Krüger 31466–31469 (DHDN, with the BETA2007 grid when PROJ has it installed, else with PROJ\u2019s Helmert parameters). ' +
    'Any other EPSG code the server looks up once in the installed PROJ database (projinfo). Spellings: EPSG:25832, 25832, urn:ogc:def:crs:EPSG::25832, CRS84.',
};

/**
 * geometry.reproject: every feature's geometry from one CRS to another, properties and ids kept.
 * `from` defaults to EPSG:4326 because a feature datum carries no CRS and GeoJSON's coordinates
 * are WGS 84 longitude, latitude (RFC 7946 §4); projected coordinates given as EPSG:4326 fail
 * with `out_of_range`, naming the feature, rather than giving nonsense.
 */
export const REPROJECT_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'geometry.reproject',
    version: '1',
    verbose_name: { de: 'Umprojizieren', en: 'Reproject' },
    doc: {
      de:
        'Rechnet die Geometrien aller Features aus dem Koordinatenreferenzsystem from (Standard EPSG:4326) in to (Standard EPSG:4326) um; Eigenschaften bleiben. ' +
        'Achsen in GeoJSON-Reihenfolge (Ost, Nord bzw. Länge, Breite); Höhen bleiben unverändert. ' +
        crsDoc.de,
      en:
        'Transforms the geometries of all features from the coordinate reference system from (default EPSG:4326) to to (default EPSG:4326); properties are kept. ' +
        'Axes in GeoJSON order (east, north or longitude, latitude); heights are kept unchanged. ' +
        crsDoc.en,
    },
    inputs: [
      { name: 'features', content_type: 'feature' },
      { name: 'from', content_type: 'string', is_optional: true, default_value: { value: WGS84 } },
      { name: 'to', content_type: 'string', is_optional: true, default_value: { value: WGS84 } },
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const features = itemsOf(inputs, 'features');
      const [from, to] = await Promise.all([resolveCrs(paramOf(inputs, 'from')), resolveCrs(paramOf(inputs, 'to'))]);
      ctx.log(`${from.name} → ${to.name}`);
      return { features: await reprojectItems(features, new CrsTransform(from, to), ctx) };
    },
  },
];

async function reprojectItems(items: FrameItems, transform: CrsTransform, ctx: FunctionRunContext): Promise<FrameItems> {
  const out: FrameItems = [];
  for (let start = 0; start < items.length; start += CHUNK) {
    ctx.signal.throwIfAborted();
    if (items.length > CHUNK) {
      ctx.progress(start / items.length);
      await new Promise((resolve) => setImmediate(resolve));
      ctx.signal.throwIfAborted();
    }
    const end = Math.min(items.length, start + CHUNK);
    for (let i = start; i < end; i++) out.push(reprojectItem(items[i], transform, i));
  }
  if (items.length > CHUNK) ctx.progress(1);
  return out;
}

function reprojectItem(item: FrameItems[number], transform: CrsTransform, index: number): FrameItems[number] {
  return { ...item, feature: reprojectFeature(item.feature, transform, index) };
}

/** A CRS port's one text; the default when the port is unset or empty. */
function paramOf(inputs: FunctionInputs, port: string): string {
  const value = sdkParamOf(inputs, port, WGS84);
  if (typeof value !== 'string' || !value.trim()) throw failure('parameter_not_text', { port });
  return value;
}

/** The reasons reproject fails with (`geodata-reproject:errors.*`), in German and English. */
export const reprojectTranslations: NodeTranslationContribution = {
  registerTranslations: (registry) =>
    registry.add({ id: 'geodata.reproject-translations', namespace: 'geodata-reproject', de, en }),
};

/** The reproject functions of the geodata library (issue 6). */
export const reprojectFunctions: FunctionContribution = {
  registerFunctions: (registry) => REPROJECT_FUNCTIONS.forEach((f) => registry.add(f)),
};

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
import { resolveCrs, type ResolvedCrs } from './crs-resolver';
import { allDegrees, itemsCrs, WGS84 } from './feature-crs';
import { CrsTransform } from './crs-transform';
import { reprojectFeature } from './reproject-geometry';
import { failure } from './reproject-errors';

/** Features reprojected between two checks of the abort signal (and progress reports). */
export const CHUNK = 500;

const crsDoc = {
  de:
    'Eingebaut sind EPSG:4326, 4258, 3857, 25832, 25833, 3035 und Gauß-Krüger 31466–31469 (DHDN, mit dem BETA2007-Gitter, wenn PROJ es installiert hat, sonst mit den Helmert-Parametern von PROJ). ' +
    'Jeden anderen EPSG-Code schlägt der Server einmal in der installierten PROJ-Datenbank nach (projinfo). Schreibweisen: EPSG:25832, 25832, urn:ogc:def:crs:EPSG::25832, CRS84.',
  en:
    'Built in are EPSG:4326, 4258, 3857, 25832, 25833, 3035 and Gauss-Krüger 31466–31469 (DHDN, with the BETA2007 grid when PROJ has it installed, else with PROJ\u2019s Helmert parameters). ' +
    'Any other EPSG code the server looks up once in the installed PROJ database (projinfo). Spellings: EPSG:25832, 25832, urn:ogc:def:crs:EPSG::25832, CRS84.',
};

/**
 * geometry.reproject: every feature's geometry from the CRS it is in to another, properties and
 * ids kept, the result labelled with its new CRS (decision 0035). A feature says its CRS by its
 * `crs` member; without one it is in EPSG:4326 (RFC 7946 §4). `from` may only confirm that CRS:
 * naming another is refused (`crs_not_source`), except for unlabelled features whose positions
 * cannot be longitudes and latitudes (data from before CRS labels): `from` then says what they are.
 */
export const REPROJECT_FUNCTIONS: FunctionDescriptor[] = [
  {
    id: 'geometry.reproject',
    version: '2',
    verbose_name: { de: 'Umprojizieren', en: 'Reproject' },
    doc: {
      de:
        'Rechnet die Geometrien aller Features aus ihrem Koordinatenreferenzsystem in to (Standard EPSG:4326) um; Eigenschaften bleiben. ' +
        'Features kennen ihr System (vom Import gesetzt, ohne Angabe WGS 84); from braucht nur angegeben zu werden, wenn es fehlt, ' +
        'und ein from, in dem die Daten nicht vorliegen, wird abgelehnt. ' +
        'Achsen in GeoJSON-Reihenfolge (Ost, Nord bzw. Länge, Breite); Höhen bleiben unverändert. ' +
        crsDoc.de,
      en:
        'Transforms the geometries of all features from their coordinate reference system to to (default EPSG:4326); properties are kept. ' +
        'Features know their CRS (set by the import, WGS 84 when none is given); from is needed only where that is missing, ' +
        'and a from the data is not in is refused. ' +
        'Axes in GeoJSON order (east, north or longitude, latitude); heights are kept unchanged. ' +
        crsDoc.en,
    },
    inputs: [
      { name: 'features', content_type: 'feature' },
      { name: 'from', content_type: 'string', is_optional: true, default_value: { value: '' } },
      { name: 'to', content_type: 'string', is_optional: true, default_value: { value: WGS84 } },
    ],
    outputs: [{ name: 'features', content_type: 'feature' }],
    run: async (inputs, ctx) => {
      const features = itemsOf(inputs, 'features');
      const from = await sourceCrs(features, paramOf(inputs, 'from', ''));
      const to = await resolveCrs(paramOf(inputs, 'to', WGS84));
      ctx.log(`${from.name} → ${to.name}`);
      return { features: await reprojectItems(features, new CrsTransform(from, to), ctx) };
    },
  },
];

/**
 * The CRS to reproject from: the features' own, which `from` (when given) must name; for
 * unlabelled features whose positions are no longitudes and latitudes, `from` itself.
 */
async function sourceCrs(features: FrameItems, given: string): Promise<ResolvedCrs> {
  const own = itemsCrs(features, 'features');
  if (!given) return resolveCrs(own);
  const from = await resolveCrs(given);
  if (from.name === own || !features.some((item) => item?.feature)) return from;
  const unlabelled = features.every((item) => !(item?.feature as { crs?: unknown } | undefined)?.crs);
  if (unlabelled && !allDegrees(features)) return from;
  throw failure('crs_not_source', { from: from.name, crs: own });
}

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

/** A CRS port's one text; `fallback` when the port is unset or empty. */
function paramOf(inputs: FunctionInputs, port: string, fallback: string): string {
  const value = sdkParamOf(inputs, port, fallback, { emptyIsUnset: true });
  if (typeof value !== 'string') throw failure('parameter_not_text', { port });
  return value.trim() || fallback;
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

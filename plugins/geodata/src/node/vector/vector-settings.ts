import type { FrameItems, FunctionInputs, FunctionRunContext, PortDescriptor } from '@werkbank/sdk/node';
import { CSV_ENCODINGS } from '../tabular/csv-read';
import { epsgCode } from '../reproject/crs-definitions';
import { featureReprojector } from '../reproject/reproject-geometry';
import { labelItems } from '../reproject/feature-crs';
import { boolParam, CHUNK, textParam, yieldToLoop } from './vector-params';

/** The vector import settings of spec 001 §3.4 (nas.gfs_template belongs to the NAS import). */
export interface VectorSettings {
  /** How bytes are decoded: utf-8, windows-1252 or iso-8859-1; '' when not set (UTF-8, or what the file declares). */
  encoding: string;
  /** The layer to read ('' = every layer; formats with one layer ignore it unless it names another). */
  layer: string;
  /** A missing layer gives no features and a log line instead of a failure. */
  ignore_missing_layer: boolean;
  /** Reproject features to EPSG:4326 (WGS 84) when their CRS is known and another one. */
  auto_transform: boolean;
  /** The CRS of the data; when given it replaces the CRS the source declares. */
  crs: string;
}

/** The encodings a vector import decodes (the ones CSV import knows, spec 001 §3.4). */
export const VECTOR_ENCODINGS = CSV_ENCODINGS;

/** The settings of `inputs`, with the defaults of spec 001 §3.4; a failure for a wrong value. */
export function vectorSettings(inputs: FunctionInputs): VectorSettings {
  return {
    encoding: textParam(inputs, 'encoding', '', VECTOR_ENCODINGS),
    layer: textParam(inputs, 'layer'),
    ignore_missing_layer: boolParam(inputs, 'ignore_missing_layer', false),
    auto_transform: boolParam(inputs, 'auto_transform', true),
    crs: textParam(inputs, 'crs'),
  };
}

/** The input ports of the settings a format uses, in the order of spec 001 §3.4. */
export function settingPorts(...names: Array<keyof VectorSettings>): PortDescriptor[] {
  const ports: Record<keyof VectorSettings, PortDescriptor> = {
    encoding: { name: 'encoding', content_type: 'string', is_optional: true },
    layer: { name: 'layer', content_type: 'string', is_optional: true },
    ignore_missing_layer: {
      name: 'ignore_missing_layer',
      content_type: 'bool',
      is_optional: true,
      default_value: { value: false },
    },
    auto_transform: { name: 'auto_transform', content_type: 'bool', is_optional: true, default_value: { value: true } },
    crs: { name: 'crs', content_type: 'string', is_optional: true },
  };
  return names.map((name) => ports[name]);
}

/**
 * Whether the CRS a source declares matters: no crs setting replaces it (it is needed to reproject
 * and, with auto_transform off, to label the features with it, decision 0035).
 */
export function needsSourceCrs(settings: VectorSettings): boolean {
  return !settings.crs;
}

/**
 * The CRS a source declares, looked up by `lookup` when needsSourceCrs says it matters. With
 * auto_transform off it only labels the features, so a CRS that cannot be identified leaves them
 * unlabelled instead of failing the import.
 */
export async function declaredCrs(
  settings: VectorSettings,
  lookup: () => Promise<string | undefined>,
): Promise<string | undefined> {
  if (!needsSourceCrs(settings)) return undefined;
  return settings.auto_transform ? lookup() : lookup().catch(() => undefined);
}

/**
 * The features reprojected in place to EPSG:4326 when auto_transform is on and their CRS (the crs
 * setting, else `sourceCrs`) is known and another one; with auto_transform off they keep their
 * coordinates and are labelled with that CRS (decision 0035); unchanged when it is unknown. Callers look the
 * source's CRS up only when `needsSourceCrs` says so. Throws like
 * geometry.reproject (unknown CRS, a position it cannot reach, naming the feature index).
 */
export async function toWgs84(
  features: FrameItems,
  sourceCrs: string | undefined,
  settings: VectorSettings,
  ctx: FunctionRunContext,
): Promise<FrameItems> {
  const from = settings.crs || sourceCrs;
  const code = from ? epsgCode(from) : undefined;
  if (!from || code === 4326) return features;
  if (!settings.auto_transform) {
    if (code === undefined) return features;
    ctx.log(`the features stay in EPSG:${code}`);
    return labelItems(features, `EPSG:${code}`);
  }
  ctx.log(`reprojecting from ${from} to EPSG:4326`);
  const reproject = await featureReprojector(from, 'EPSG:4326');
  for (let i = 0; i < features.length; i++) {
    features[i] = { ...features[i], feature: reproject(features[i].feature, i) };
    if ((i + 1) % CHUNK === 0) await yieldToLoop(ctx);
  }
  return features;
}

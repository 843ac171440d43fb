import { LAYER_PATH } from './layers-api';

/**
 * The layer's legend (spec 001 §2.2 "legend upload", decision 0063): a PNG uploaded to the blob
 * store and served at the layer's stable legend address. The spec's guidance (130 to 140 px wide,
 * transparent) is advice: an image outside it is kept, with a warning.
 */
export const LEGEND_MAX_BYTES = 1024 * 1024;
export const LEGEND_MIN_WIDTH = 130;
export const LEGEND_MAX_WIDTH = 140;
/** Larger images are refused (a legend is a small picture; this also bounds decoding by readers). */
export const LEGEND_MAX_SIDE = 4096;

/** What the server read from an uploaded legend. */
export interface LegendInfo {
  width: number;
  height: number;
  /** The PNG has an alpha channel or a transparency chunk (tRNS). */
  alpha: boolean;
}

/** The reply of `POST {layer}legend/`: the legend's address, what was read, and the guidance it misses. */
export interface LegendUpload extends LegendInfo {
  legend: string;
  size: number;
  /** Reasons (`legend_width`, `legend_opaque`) with their message in the caller's language. */
  warnings: Array<{ reason: string; message: string }>;
}

/** The stable address of a layer's uploaded legend. */
export const legendAddress = (layerId: number): string => `${LAYER_PATH}${layerId}/legend.png`;

/** The id of the layer whose legend address `v` is, or undefined. */
export function legendLayerId(v: string): number | undefined {
  const m = /^\/api\/v1\/layer\/(\d{1,9})\/legend\.png$/.exec(v);
  return m ? Number(m[1]) : undefined;
}

/** The guidance an image misses, as translation keys of the `layers` namespace with their reasons. */
export function legendWarnings(info: LegendInfo): Array<{ reason: string; key: string; params: Record<string, unknown> }> {
  const out: Array<{ reason: string; key: string; params: Record<string, unknown> }> = [];
  if (info.width < LEGEND_MIN_WIDTH || info.width > LEGEND_MAX_WIDTH)
    out.push({
      reason: 'legend_width',
      key: 'legend.warn_width',
      params: { width: info.width, min: LEGEND_MIN_WIDTH, max: LEGEND_MAX_WIDTH },
    });
  if (!info.alpha) out.push({ reason: 'legend_opaque', key: 'legend.warn_opaque', params: {} });
  return out;
}

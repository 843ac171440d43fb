import type { InfoFormat } from '../../common/wms-params';
import type { ExternalInfo } from '../external-wms-info';
import type { Publication, ServedFeature } from '../published-layers';
import { parseRemoteXml } from '../remote-xml';
import { featureInfoGml, featureInfoHtml } from './wms-feature-info';

/** A layer's name in requests: its short name, else its id. */
export const layerName = (p: Publication) => p.layer.slug || String(p.layer.id);

/** What one layer of a GetFeatureInfo found: its own features, or its remote's answers. */
export interface InfoPart {
  leaf: Publication;
  features?: ServedFeature[];
  remote?: ExternalInfo[];
}

/**
 * The answers of several layers as one GetFeatureInfo answer of the asked format: GeoJSON features
 * in one collection (each with the foreign member `layer`, its layer's name), one HTML page with a
 * section per layer, one msGMLOutput with an element per layer; layers that found nothing are left out. Remote answers are merged where
 * their format allows (GeoJSON, msGMLOutput, an HTML body); other text goes into HTML as text.
 */
export function mergeFeatureInfo(format: InfoFormat, all: InfoPart[], lang: string): { type: string; body: string | object } {
  // Layers that found nothing are left out (as MapServer does).
  const parts = all.filter((part) => (part.features?.length ?? 0) > 0 || (part.remote?.length ?? 0) > 0);
  if (format === 'application/json') {
    const features: unknown[] = [];
    for (const part of parts) {
      const name = layerName(part.leaf);
      for (const f of part.features ?? []) features.push({ ...f, layer: name });
      for (const r of part.remote ?? []) {
        if (/gml|xml/.test(r.type)) {
          for (const f of gmlFeatures(r.body.toString('utf8'))) features.push({ ...f, layer: name });
          continue;
        }
        try {
          const doc = JSON.parse(r.body.toString('utf8')) as { features?: unknown[] };
          for (const f of doc.features ?? []) if (f && typeof f === 'object') features.push({ ...f, layer: name });
        } catch {
          // Not GeoJSON: nothing to add.
        }
      }
    }
    return { type: 'application/json; charset=utf-8', body: { type: 'FeatureCollection', features } };
  }
  if (format === 'text/html') {
    const sections = parts.map((part) => {
      const own = part.features ? innerOf(featureInfoHtml(part.leaf.layer, part.features, lang), 'body') : '';
      const remote = (part.remote ?? [])
        .map((r) => {
          const text = r.body.toString('utf8');
          if (/html/.test(r.type)) return innerOf(text, 'body') ?? '';
          return `<h1>${escape(part.leaf.layer.name)}</h1><pre>${escape(text)}</pre>`;
        })
        .join('\n');
      return `<section>${own ?? ''}${remote}</section>`;
    });
    return {
      type: 'text/html; charset=utf-8',
      body:
        `<!DOCTYPE html>\n<html lang="${lang === 'de' ? 'de' : 'en'}"><head><meta charset="utf-8"><title>${escape(parts[0]?.leaf.layer.name ?? '')}</title></head>` +
        `<body>${sections.join('\n')}</body></html>\n`,
    };
  }
  const layers = parts.map((part) => {
    const own = part.features ? (innerOf(featureInfoGml(layerName(part.leaf), part.features), 'msGMLOutput') ?? '') : '';
    const remote = (part.remote ?? []).map((r) => innerOf(r.body.toString('utf8'), 'msGMLOutput') ?? '').join('');
    return own + remote;
  });
  return {
    type: `${format}; charset=utf-8`,
    body:
      `<?xml version="1.0" encoding="UTF-8"?>\n<msGMLOutput xmlns:gml="http://www.opengis.net/gml" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
      `${layers.join('')}</msGMLOutput>\n`,
  };
}

/** The content of an XML/HTML document's element `tag` (its first), or undefined. */
function innerOf(text: string, tag: string): string | undefined {
  const open = new RegExp(`<${tag}(\\s[^>]*)?>`, 'i').exec(text);
  if (!open) return undefined;
  const end = text.toLowerCase().lastIndexOf(`</${tag.toLowerCase()}>`);
  if (end < open.index) return undefined;
  return text.slice(open.index + open[0].length, end);
}

const escape = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The features of a msGMLOutput answer (MapServer's GML feature info) as GeoJSON features without
 * geometry: each `…_feature` element's children (but its boundedBy) are its properties, its box the
 * `bbox`, its `fid` the id. Anything else gives none.
 */
export function gmlFeatures(text: string): Array<Record<string, unknown>> {
  const doc = parseRemoteXml(text, { parseTagValue: false });
  if (!doc) return [];
  const out: Array<Record<string, unknown>> = [];
  const root = doc.msGMLOutput as Record<string, unknown> | undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined || v === '' ? [] : [v]) as Array<Record<string, unknown>>;
  for (const [layerTag, layers] of Object.entries(root ?? {}))
    if (layerTag.endsWith('_layer'))
      for (const layer of list(layers))
        for (const [tag, items] of Object.entries(layer ?? {}))
          if (tag.endsWith('_feature'))
            for (const item of list(items)) {
              const properties: Record<string, unknown> = {};
              let bbox: number[] | undefined;
              for (const [k, v] of Object.entries(item ?? {})) {
                if (k.startsWith('@_')) continue;
                if (k === 'boundedBy') {
                  const coords = String((v as { Box?: { coordinates?: unknown } })?.Box?.coordinates ?? '');
                  const n = coords
                    .split(/[\s,]+/)
                    .filter(Boolean)
                    .map(Number);
                  if (n.length === 4 && n.every(Number.isFinite)) bbox = n;
                  continue;
                }
                properties[k] = typeof v === 'object' ? JSON.stringify(v) : typeof v === 'string' ? xmlText(v) : v;
              }
              const fid = item?.['@_fid'];
              out.push({
                type: 'Feature',
                ...(fid !== undefined ? { id: String(fid) } : {}),
                ...(bbox ? { bbox } : {}),
                geometry: null,
                properties,
              });
            }
  return out;
}

/** Text with the five predefined XML entities decoded (the parser keeps entities as written). */
function xmlText(v: string): string {
  return v.replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}

import type { InfoFormat } from '../../common/wms-params';
import type { ExternalInfo } from '../external-wms-info';
import type { Publication, ServedFeature } from '../published-layers';
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

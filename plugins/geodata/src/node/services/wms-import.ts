import type { FrameItems, FunctionDescriptor } from '@werkbank/sdk/node';
import { textParam } from '../vector/vector-params';
import { fetchXml, withParams, type Net } from './service-fetch';
import { attr, child, children, childText, textOf, throwIfException, type XmlNode } from './service-xml';
import { servicesFailure } from './services-failure';
import { serviceUrl } from './services-params';
import { absoluteOr } from './wfs-capabilities';

/** A `wms` datum (types plugin): one named layer of a Web Map Service. */
export interface WmsDatum {
  tms_url: string;
  bbox: number[];
  layers: string;
  srs: string[];
  transparent: boolean;
}

/** What a layer inherits from its parents (WMS 1.3.0 §7.2.4.8). */
interface Inherited {
  srs: string[];
  bbox?: number[];
}

/**
 * `wms.import`: the named layers of a Web Map Service (1.3.0 or 1.1.1) as `wms` datums from its
 * capabilities: the GetMap address as tms_url, the layer name, the bounding box in WGS 84 and the
 * offered reference systems; `layer` picks one.
 */
export function wmsImport(net: () => Net): FunctionDescriptor {
  return {
    id: 'wms.import',
    version: '1',
    verbose_name: { de: 'WMS importieren', en: 'Import WMS' },
    doc: {
      de:
        'Liest die Capabilities eines Web Map Service (WMS 1.3.0 oder 1.1.1) unter der Adresse url und gibt je benannter Ebene ein ' +
        'wms-Datum aus: tms_url (die GetMap-Adresse), layers (der Ebenenname), bbox (Länge/Breite in WGS 84 aus ' +
        'EX_GeographicBoundingBox bzw. LatLonBoundingBox), srs (die angebotenen Bezugssysteme) und transparent (nein bei ' +
        'opaken Ebenen oder ohne PNG/GIF). Mit layer nur diese eine Ebene. Ebenen erben Bezugssysteme und Ausdehnung ihrer Elternebenen.',
      en:
        'Reads the capabilities of a Web Map Service (WMS 1.3.0 or 1.1.1) at the address url and outputs a wms datum per named ' +
        'layer: tms_url (the GetMap address), layers (the layer name), bbox (longitude/latitude in WGS 84 from ' +
        'EX_GeographicBoundingBox or LatLonBoundingBox), srs (the reference systems offered) and transparent (no for opaque ' +
        'layers or without PNG/GIF). With layer only that one layer. Layers inherit the reference systems and extent of their parents.',
    },
    inputs: [
      { name: 'url', content_type: 'string' },
      { name: 'layer', content_type: 'string', is_optional: true },
    ],
    outputs: [{ name: 'layers', content_type: 'wms' }],
    run: async (inputs, ctx) => {
      const url = serviceUrl(inputs);
      const wanted = textParam(inputs, 'layer');
      const base = new URL(url);
      for (const key of [...base.searchParams.keys()])
        if (['service', 'request', 'version'].includes(key.toLowerCase())) base.searchParams.delete(key);
      const doc = await fetchXml(net(), withParams(base.href, { SERVICE: 'WMS', REQUEST: 'GetCapabilities' }), ctx);
      ctx.progress(0.5);
      throwIfException(doc, base.href);
      if (doc.root !== 'WMS_Capabilities' && doc.root !== 'WMT_MS_Capabilities')
        throw servicesFailure('not_a_service', { url: base.href, service: 'WMS', root: doc.root });
      const capability = child(doc.node, 'Capability');
      const getMap = child(child(capability, 'Request'), 'GetMap');
      const href = attr(child(child(child(child(getMap, 'DCPType'), 'HTTP'), 'Get'), 'OnlineResource'), 'href');
      const formats = children(getMap, 'Format').map(textOf);
      const transparentFormat = formats.some((f) => /png|gif/i.test(f));
      const all: WmsDatum[] = [];
      for (const layer of children(capability, 'Layer'))
        collectLayers(layer, { srs: [] }, absoluteOr(href, base.href), transparentFormat, all);
      const chosen = wanted ? all.filter((l) => l.layers === wanted) : all;
      if (!all.length) throw servicesFailure('no_layers', { url: base.href, service: 'WMS' });
      if (!chosen.length) throw servicesFailure('unknown_layer', { url: base.href, layer: wanted, available: names(all) });
      ctx.log(`WMS ${attr(doc.node, 'version')}: ${all.length} named layers`);
      ctx.progress(1);
      return { layers: chosen as unknown as FrameItems };
    },
  };
}

/** The first 20 layer names, for messages. */
export const names = (layers: Array<{ layers: string }>): string =>
  layers
    .slice(0, 20)
    .map((l) => l.layers)
    .join(', ');

/** Adds the layer (when named) and its sub-layers, depth first, with what they inherit. */
function collectLayers(layer: XmlNode, parent: Inherited, tmsUrl: string, transparentFormat: boolean, out: WmsDatum[]): void {
  const own = [...children(layer, 'CRS'), ...children(layer, 'SRS')].flatMap((s) => textOf(s).split(/\s+/)).filter(Boolean);
  const inherited: Inherited = { srs: [...new Set([...parent.srs, ...own])], bbox: geographicBox(layer) ?? parent.bbox };
  const name = childText(layer, 'Name');
  if (name)
    out.push({
      tms_url: tmsUrl,
      bbox: inherited.bbox ?? [-180, -90, 180, 90],
      layers: name,
      srs: inherited.srs,
      transparent: transparentFormat && attr(layer, 'opaque') !== '1',
    });
  for (const sub of children(layer, 'Layer')) collectLayers(sub, inherited, tmsUrl, transparentFormat, out);
}

/** [west, south, east, north] from EX_GeographicBoundingBox (1.3.0) or LatLonBoundingBox (1.1.1). */
function geographicBox(layer: XmlNode): number[] | undefined {
  const ex = child(layer, 'EX_GeographicBoundingBox');
  const latLon = child(layer, 'LatLonBoundingBox');
  const texts = ex
    ? ['westBoundLongitude', 'southBoundLatitude', 'eastBoundLongitude', 'northBoundLatitude'].map((n) => childText(ex, n))
    : ['minx', 'miny', 'maxx', 'maxy'].map((n) => attr(latLon, n));
  const box = texts.map((t) => (t === '' ? NaN : Number(t)));
  return box.every(Number.isFinite) ? box : undefined;
}

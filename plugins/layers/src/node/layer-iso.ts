import type { ResourceRequest } from '@werkbank/sdk/node';
import type { Layer } from '../common/layers-api';
import type { Metadata } from '../common/metadata';
import type { IsoTarget } from '../common/metadata-iso';
import { serviceUrls } from '../common/service-urls';
import { iso19139, type IsoLayerRecord } from './iso19139';

/** The OGC protocol names of the services' links (as INSPIRE and GeoNetwork use them). */
const PROTOCOLS: Record<string, string> = {
  geojson: 'WWW:LINK-1.0-http--link',
  ogcapi: 'OGC API - Features',
  wfs: 'OGC:WFS',
  wms: 'OGC:WMS',
  wmts_kvp: 'OGC:WMTS',
  wmts_rest: 'OGC:WMTS',
};

/**
 * The metadata values by the ISO element their attribute type names (decision 0066): `of` lists
 * them, `first` gives the first or a fallback.
 */
export async function isoValues(req: ResourceRequest, metadata: Metadata | null) {
  const values = metadata?.values ?? [];
  const types = new Map<string, IsoTarget | ''>();
  if (values.length) {
    const ids = values.map((v) => Number(/\/(\d+)\/$/.exec(v.attributetype)?.[1] ?? 0));
    const rows = (await req.manager.query(`SELECT id, iso FROM layers_metadataattributetype WHERE id = ANY($1)`, [
      ids,
    ])) as Array<{ id: number; iso: IsoTarget | '' }>;
    for (const row of rows) types.set(`/api/v1/metadataattributetype/${row.id}/`, row.iso);
  }
  const of = (target: IsoTarget) => values.filter((v) => types.get(v.attributetype) === target).map((v) => v.value);
  const first = (target: IsoTarget, fallback: string) => of(target)[0] ?? fallback;
  return { of, first };
}

/** The owner's name and e-mail address (the contact when no value names one). */
export async function ownerOf(
  req: ResourceRequest,
  owner: string | null | undefined,
): Promise<{ username: string; email: string | null } | undefined> {
  if (!owner) return undefined;
  const [row] = (await req.manager.query(`SELECT username, email FROM werkbank_user WHERE id = $1`, [
    Number(/\/(\d+)\/$/.exec(owner)?.[1] ?? 0),
  ])) as Array<{ username: string; email: string | null }>;
  return row;
}

/**
 * A layer's ISO 19139 record (decision 0066): title, abstract and contact from the metadata values
 * whose attribute type names an ISO element, else from the layer (name, description, selection
 * contact, owner); keywords from its tags and keyword values; extent from its bbox and time range;
 * WGS 84 as reference system unless a value says otherwise; service links from the templates.
 */
export async function layerIsoXml(
  req: ResourceRequest,
  layer: Record<string, unknown>,
  templates: Record<string, string>,
  origin: string,
): Promise<string> {
  const l = layer as unknown as Layer;
  const { of, first } = await isoValues(req, l.metadata as Metadata | null);
  const owner = await ownerOf(req, l.owner);
  const contactText = l.selection_contact.trim();
  const emailInContact = /[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+/.exec(contactText)?.[0];
  const record: IsoLayerRecord = {
    identifier: `${origin}${l.resource_uri}`,
    title: first('title', l.description_title || l.name),
    abstract: first('abstract', l.description || l.name),
    language: req.lang === 'de' ? 'ger' : 'eng',
    modified: new Date(l.modified),
    keywords: [...(l.tags ?? []).map((t) => t.name), ...of('keyword')],
    bbox: l.bbox,
    timeMin: l.time_min,
    timeMax: l.time_max,
    referenceSystem: first('reference_system', 'EPSG:4326'),
    contact: {
      organisation: first('organisation', contactText.split('\n')[0] || owner?.username || ''),
      email: first('email', emailInContact ?? owner?.email ?? ''),
    },
    lineage: first('lineage', ''),
    links: serviceUrls(l, templates, origin).map((s) => ({
      url: s.url,
      protocol: PROTOCOLS[s.kind],
      name: l.slug || String(l.id),
    })),
  };
  return iso19139(record);
}

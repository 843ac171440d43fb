import type { ResourceRequest } from '@werkbank/sdk/node';
import { typedOf } from '../common/metadata';
import { iso19139 } from './iso19139';
import { isoValues, ownerOf } from './layer-iso';

/**
 * A depot's ISO 19139 record (decision 0063), mapped like a layer's (decision 0066): title,
 * abstract, contact, keywords, reference system and lineage from the typed metadata values whose
 * attribute type names an ISO element, else from the depot (name, description, owner, tags);
 * the extent is the depot's `extent` (the union of its current datums' extents). A depot has no
 * service addresses, so no online resources.
 */
export async function depotIsoXml(req: ResourceRequest, depot: Record<string, unknown>, origin: string): Promise<string> {
  const { of, first } = await isoValues(req, typedOf(depot.metadata));
  const owner = await ownerOf(req, depot.owner as string | null);
  const name = String(depot.name ?? '');
  const tags = (depot.tags as Array<{ name: string }> | undefined) ?? [];
  const extent =
    Array.isArray(depot.extent) && depot.extent.length === 4 ? (depot.extent as [number, number, number, number]) : null;
  return iso19139({
    identifier: `${origin}${String(depot.resource_uri)}`,
    title: first('title', name),
    abstract: first('abstract', String(depot.description ?? '') || name),
    language: req.lang === 'de' ? 'ger' : 'eng',
    modified: new Date(String(depot.modified ?? depot.created ?? Date.now())),
    keywords: [...tags.map((t) => t.name), ...of('keyword')],
    bbox: extent,
    timeMin: null,
    timeMax: null,
    referenceSystem: first('reference_system', 'EPSG:4326'),
    contact: { organisation: first('organisation', owner?.username ?? ''), email: first('email', owner?.email ?? '') },
    lineage: first('lineage', ''),
    links: [],
  });
}

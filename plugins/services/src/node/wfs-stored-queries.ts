import { NAMESPACE_PREFIX } from './wfs-documents';
import { esc } from './wfs-gml';

/**
 * The stored queries of the WFS 2.0.0 (decision 0083, "WFS"): the one every WFS 2.0 server must
 * offer, GetFeatureById. Its answer is the feature itself, not a collection.
 */
export const GET_FEATURE_BY_ID = 'urn:ogc:def:query:OGC-WFS::GetFeatureById';
export const STORED_QUERIES = [GET_FEATURE_BY_ID];

const WFS_NS = 'http://www.opengis.net/wfs/2.0';

/** What the documents name: the service address (the feature type's namespace), its type and the query's title. */
export interface StoredQueryDocument {
  url: string;
  type: string;
  /** The title of GetFeatureById in the caller's language. */
  title: string;
}

/** ListStoredQueriesResponse: each stored query with its title and the feature type it returns. */
export function listStoredQueriesXml({ url, type, title }: StoredQueryDocument): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<wfs:ListStoredQueriesResponse xmlns:wfs="${WFS_NS}" xmlns:${NAMESPACE_PREFIX}="${esc(url)}">` +
    `<wfs:StoredQuery id="${GET_FEATURE_BY_ID}"><wfs:Title>${esc(title)}</wfs:Title>` +
    `<wfs:ReturnFeatureType>${NAMESPACE_PREFIX}:${type}</wfs:ReturnFeatureType></wfs:StoredQuery>` +
    '</wfs:ListStoredQueriesResponse>\n'
  );
}

/** DescribeStoredQueriesResponse of the queries named (all when none): parameters and the language of their expression. */
export function describeStoredQueriesXml({ url, type, title }: StoredQueryDocument): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<wfs:DescribeStoredQueriesResponse xmlns:wfs="${WFS_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema"` +
    ` xmlns:${NAMESPACE_PREFIX}="${esc(url)}">` +
    `<wfs:StoredQueryDescription id="${GET_FEATURE_BY_ID}"><wfs:Title>${esc(title)}</wfs:Title>` +
    '<wfs:Parameter name="ID" type="xsd:string"/>' +
    `<wfs:QueryExpressionText returnFeatureTypes="${NAMESPACE_PREFIX}:${type}"` +
    ' language="urn:ogc:def:queryLanguage:OGC-WFS::WFS_QueryExpression" isPrivate="true"/>' +
    '</wfs:StoredQueryDescription></wfs:DescribeStoredQueriesResponse>\n'
  );
}

/**
 * STOREDQUERY_ID of DescribeStoredQueries: the ids asked for (every offered one when none is
 * named), or the first unknown id.
 */
export function askedStoredQueries(raw: string | undefined): { ids: string[] } | { unknown: string } {
  const ids = (raw ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const unknown = ids.find((id) => !STORED_QUERIES.includes(id));
  return unknown !== undefined ? { unknown } : { ids: ids.length ? ids : STORED_QUERIES };
}

/** A feature element (as GmlWriter writes it) made a document root: the namespaces it uses declared on it. */
export function standaloneFeature(member: string, url: string, gmlNs: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    member.replace(/^<([^\s/>]+)/, `<$1 xmlns:${NAMESPACE_PREFIX}="${esc(url)}" xmlns:gml="${gmlNs}"`) +
    '\n'
  );
}

/** wfs:ValueCollection of GetPropertyValue around the members (each a value or a GML geometry). */
export function valueCollectionXml(
  members: string[],
  { url, matched, timeStamp, gmlNs }: { url: string; matched: number | undefined; timeStamp: string; gmlNs: string },
): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<wfs:ValueCollection xmlns:wfs="${WFS_NS}" xmlns:gml="${gmlNs}" xmlns:${NAMESPACE_PREFIX}="${esc(url)}"` +
    ` timeStamp="${timeStamp}" numberMatched="${matched ?? 'unknown'}" numberReturned="${members.length}"` +
    (members.length ? `>${members.map((m) => `<wfs:member>${m}</wfs:member>`).join('')}</wfs:ValueCollection>\n` : '/>\n')
  );
}

import type { FunctionRunContext } from '@werkbank/sdk/node';
import { fetchXml, withParams, type Net } from './service-fetch';
import { attr, child, children, childText, textOf, throwIfException, type XmlDocument, type XmlNode } from './service-xml';
import { servicesFailure } from './services-failure';

/** One feature type a WFS offers. */
export interface WfsFeatureType {
  /** The qualified name as the service writes it (`app:roads`). */
  name: string;
  title: string;
  /** DefaultCRS (2.0) or DefaultSRS (1.1), '' when not named. */
  defaultCrs: string;
}

/** What a WFS announces in its capabilities, as far as reading features needs it. */
export interface WfsCapabilities {
  /** `2.0.0` or `1.1.0` (what the service answered). */
  version: string;
  featureTypes: WfsFeatureType[];
  /** The GetFeature address for HTTP GET (the address asked when the service names none or another host). */
  getFeatureUrl: string;
  /** outputFormat values GetFeature accepts. */
  outputFormats: string[];
  /** Result paging with startIndex (ImplementsResultPaging TRUE). */
  paging: boolean;
  /** Most features the service returns per request (CountDefault), when announced. */
  countDefault?: number;
}

/** KVP names the import sets itself; other parameters of the typed address (a map, a key) are kept. */
const OWN_PARAMS = [
  'service',
  'request',
  'version',
  'acceptversions',
  'typename',
  'typenames',
  'outputformat',
  'count',
  'maxfeatures',
  'startindex',
  'srsname',
  'resulttype',
  'sortby',
];

/** The service address without the WFS request parameters. */
export function wfsBase(url: string): string {
  const parsed = new URL(url);
  for (const key of [...parsed.searchParams.keys()]) if (OWN_PARAMS.includes(key.toLowerCase())) parsed.searchParams.delete(key);
  return parsed.href;
}

/**
 * GetCapabilities with version negotiation (OGC 09-025r2 §7.6.3.4): AcceptVersions 2.0.0,1.1.0
 * first; when the service answers with an exception or an error status (older servers reject the
 * parameter), again with VERSION=1.1.0. Fails `service_exception` with the service's text, `not_a_service` when the
 * answer is no WFS capabilities, `wfs_version_unsupported` for a version other than 2.0 and 1.1.
 */
export async function wfsCapabilities(net: Net, base: string, ctx: FunctionRunContext): Promise<WfsCapabilities> {
  const kvp = { SERVICE: 'WFS', REQUEST: 'GetCapabilities' };
  // A refusal may come as an exception document, an HTTP error status (fetch_status) or both (service_exception).
  let doc = await fetchXml(net, withParams(base, { ...kvp, ACCEPTVERSIONS: '2.0.0,1.1.0' }), ctx).catch((e: unknown) => {
    const code = (e as { code?: unknown }).code;
    if (code === 'fetch_status' || code === 'service_exception') return undefined;
    throw e;
  });
  if (!doc || doc.root === 'ExceptionReport' || doc.root === 'ServiceExceptionReport') {
    ctx.log('the service refused AcceptVersions 2.0.0,1.1.0; asking for 1.1.0');
    doc = await fetchXml(net, withParams(base, { ...kvp, VERSION: '1.1.0' }), ctx);
  }
  throwIfException(doc, base);
  if (doc.root !== 'WFS_Capabilities') throw servicesFailure('not_a_service', { url: base, service: 'WFS', root: doc.root });
  return readCapabilities(doc, base);
}

function readCapabilities(doc: XmlDocument, base: string): WfsCapabilities {
  const version = attr(doc.node, 'version');
  if (!version.startsWith('2.0') && !version.startsWith('1.1'))
    throw servicesFailure('wfs_version_unsupported', { url: base, version: version || '-' });
  const featureTypes = children(child(doc.node, 'FeatureTypeList'), 'FeatureType').map((t) => ({
    name: childText(t, 'Name'),
    title: childText(t, 'Title'),
    defaultCrs: childText(t, 'DefaultCRS') || childText(t, 'DefaultSRS'),
  }));
  const metadata = child(doc.node, 'OperationsMetadata');
  const getFeature = children(metadata, 'Operation').find((o) => attr(o, 'name') === 'GetFeature');
  const href = attr(child(child(child(getFeature, 'DCP'), 'HTTP'), 'Get'), 'href');
  const constraints = [...children(metadata, 'Constraint'), ...children(getFeature, 'Constraint')];
  const constraint = (name: string) => constraints.find((c) => attr(c, 'name') === name);
  const countDefault = Number(childText(constraint('CountDefault'), 'DefaultValue'));
  return {
    version,
    featureTypes: featureTypes.filter((t) => t.name),
    getFeatureUrl: sameOriginOr(href, base),
    outputFormats: parameterValues(getFeature, 'outputFormat'),
    paging: /^true$/i.test(childText(constraint('ImplementsResultPaging'), 'DefaultValue')),
    countDefault: Number.isInteger(countDefault) && countDefault > 0 ? countDefault : undefined,
  };
}

/** The values of an operation parameter: 2.0 AllowedValues/Value, 1.1 Value. */
function parameterValues(operation: XmlNode | undefined, name: string): string[] {
  const parameter = children(operation, 'Parameter').find((p) => attr(p, 'name') === name);
  return [...children(parameter, 'Value'), ...children(child(parameter, 'AllowedValues'), 'Value')].map(textOf).filter(Boolean);
}

/**
 * The advertised GetFeature address when it is on the host the capabilities came from, else the
 * address the user gave: capabilities often name an internal host or the wrong scheme
 * (`http://localhost:8080/geoserver/wfs` behind a proxy), which the user's address reaches anyway.
 */
function sameOriginOr(href: string, base: string): string {
  const url = absoluteOr(href, base);
  return new URL(url).origin === new URL(base).origin ? url : base;
}

/** `href` when it is an absolute http(s) URL, else `base`. */
export function absoluteOr(href: string, base: string): string {
  try {
    const url = new URL(href);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : base;
  } catch {
    return base;
  }
}

/**
 * The feature types to read: those the address names (typeNames / typeName), else the `typename`
 * setting (comma-separated), else all the service offers (decision 0023). A name matches with or
 * without its prefix; an unknown one fails `wfs_unknown_typename` listing what the service offers.
 */
export function chooseFeatureTypes(caps: WfsCapabilities, wanted: string[], url: string): WfsFeatureType[] {
  if (!caps.featureTypes.length) throw servicesFailure('wfs_no_feature_types', { url });
  if (!wanted.length) return caps.featureTypes;
  const local = (n: string) => n.slice(n.indexOf(':') + 1);
  return wanted.map((name) => {
    const found = caps.featureTypes.find((t) => t.name === name) ?? caps.featureTypes.find((t) => local(t.name) === local(name));
    if (!found)
      throw servicesFailure('wfs_unknown_typename', {
        url,
        typename: name,
        available: caps.featureTypes
          .slice(0, 20)
          .map((t) => t.name)
          .join(', '),
      });
    return found;
  });
}

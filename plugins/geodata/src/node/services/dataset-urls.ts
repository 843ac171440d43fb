import type { FunctionDescriptor, FunctionRunContext } from '@werkbank/sdk/node';
import { fetchText, parseJson, type Net } from './service-fetch';
import { attr, children, parseXml, throwIfException, type XmlNode } from './service-xml';
import { servicesFailure } from './services-failure';
import { serviceUrl } from './services-params';

/** Most download links one listing gives, and most dataset feeds followed. */
export const DATASET_LIMITS = { links: 10_000, feeds: 100 };

/** Atom link relations that lead to data (RFC 4287 §4.2.7.2; INSPIRE TG Download Services §5.1, §5.2). */
const DATA_RELS = new Set(['', 'alternate', 'section', 'enclosure']);

/**
 * `file.urls_from_dataset`: the download addresses a dataset listing names, as strings for
 * file.download: Atom feeds (INSPIRE download service and dataset feeds) and DCAT or CKAN JSON.
 */
export function urlsFromDataset(net: () => Net): FunctionDescriptor {
  return {
    id: 'file.urls_from_dataset',
    version: '1',
    verbose_name: { de: 'Download-Adressen eines Datensatzes', en: 'Download addresses of a dataset' },
    doc: {
      de:
        'Liest die Auflistung unter der Adresse url und gibt die Download-Adressen darin aus, eine Zeichenkette je Adresse, ' +
        'z. B. für file.download. Atom-Feeds (INSPIRE-Download-Dienste): die Links der Einträge (rel alternate, section, enclosure); ' +
        'verweist ein Eintrag auf einen Datensatz-Feed (application/atom+xml), werden dessen Links gelesen (eine Ebene tief). ' +
        'JSON: DCAT (distribution[].downloadURL, sonst accessURL) und CKAN (resources[].url). Doppelte Adressen kommen einmal. ' +
        'Höchstens 10 000 Adressen und 100 Datensatz-Feeds.',
      en:
        'Reads the listing at the address url and outputs the download addresses in it, one string per address, e.g. for ' +
        'file.download. Atom feeds (INSPIRE download services): the links of the entries (rel alternate, section, enclosure); ' +
        'when an entry links a dataset feed (application/atom+xml), its links are read (one level deep). ' +
        'JSON: DCAT (distribution[].downloadURL, else accessURL) and CKAN (resources[].url). Repeated addresses come once. ' +
        'At most 10,000 addresses and 100 dataset feeds.',
    },
    inputs: [{ name: 'url', content_type: 'string' }],
    outputs: [{ name: 'urls', content_type: 'string' }],
    run: async (inputs, ctx) => {
      const url = serviceUrl(inputs);
      const answer = await fetchText(net(), url, ctx, { maxBytes: 16 * 1024 * 1024, timeoutMs: 60_000 });
      const found = answer.text.trimStart().startsWith('<')
        ? await atomLinks(net(), answer.text, answer.url, ctx)
        : jsonLinks(parseJson(answer.text, answer.url), answer.url);
      const urls = [...new Set(found)];
      if (!urls.length) throw servicesFailure('no_download_links', { url });
      if (urls.length > DATASET_LIMITS.links) throw servicesFailure('too_many_links', { url, limit: DATASET_LIMITS.links });
      ctx.log(`${urls.length} download addresses`);
      ctx.progress(1);
      return { urls: urls.map((value) => ({ value })) };
    },
  };
}

/** The data links of an Atom feed, following dataset feeds one level. */
async function atomLinks(net: Net, text: string, url: string, ctx: FunctionRunContext): Promise<string[]> {
  const doc = parseXml(text, url);
  throwIfException(doc, url);
  if (doc.root !== 'feed') throw servicesFailure('not_a_listing', { url, root: doc.root });
  const { downloads, feeds } = entryLinks(doc.node, url);
  if (feeds.length > DATASET_LIMITS.feeds) throw servicesFailure('too_many_links', { url, limit: DATASET_LIMITS.feeds });
  for (const [i, feed] of feeds.entries()) {
    const answer = await fetchText(net, feed, ctx, { maxBytes: 16 * 1024 * 1024, timeoutMs: 60_000 });
    const sub = parseXml(answer.text, answer.url);
    throwIfException(sub, answer.url);
    if (sub.root !== 'feed') throw servicesFailure('not_a_listing', { url: answer.url, root: sub.root });
    downloads.push(...entryLinks(sub.node, answer.url).downloads);
    ctx.progress((i + 1) / (feeds.length + 1));
  }
  return downloads;
}

/** Entry links of a feed: download addresses, and dataset feeds (links of type application/atom+xml); HTML pages skipped. */
function entryLinks(feed: XmlNode, base: string): { downloads: string[]; feeds: string[] } {
  const downloads: string[] = [];
  const feeds: string[] = [];
  for (const entry of children(feed, 'entry'))
    for (const link of children(entry, 'link')) {
      const href = absolute(attr(link, 'href'), base);
      if (!href || !DATA_RELS.has(attr(link, 'rel'))) continue;
      const type = attr(link, 'type');
      if (/atom\+xml/i.test(type)) feeds.push(href);
      else if (/^text\/html/i.test(type))
        continue; // a landing page, not data
      else downloads.push(href);
    }
  return { downloads, feeds };
}

/**
 * Download addresses in DCAT (JSON or JSON-LD: `distribution`/`dcat:distribution` with
 * `downloadURL`, else `accessURL`, as text or `{"@id"}`) and CKAN (`resources[].url`, in
 * package_show and package_search answers), found anywhere in the document.
 */
function jsonLinks(json: unknown, base: string): string[] {
  const found: string[] = [];
  const value = (v: unknown): string => {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') return first;
    const id = (first as { '@id'?: unknown } | undefined)?.['@id'];
    return typeof id === 'string' ? id : '';
  };
  const field = (o: Record<string, unknown>, name: string) => value(o[name] ?? o[`dcat:${name}`]);
  const walk = (node: unknown, key: string, depth: number) => {
    if (depth > 20 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, key, depth + 1);
      return;
    }
    const o = node as Record<string, unknown>;
    if (key === 'resources' && typeof o.url === 'string') found.push(o.url);
    else if (/^(dcat:)?distribution$/.test(key) || o['@type'] === 'dcat:Distribution') {
      const link = field(o, 'downloadURL') || field(o, 'accessURL');
      if (link) found.push(link);
    }
    for (const [k, v] of Object.entries(o)) walk(v, k, depth + 1);
  };
  walk(json, '', 0);
  return found.map((u) => absolute(u, base)).filter(Boolean);
}

/** `href` resolved against `base` when it is http(s), else ''. */
function absolute(href: string, base: string): string {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}

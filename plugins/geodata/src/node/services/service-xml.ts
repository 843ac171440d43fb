import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { checkXmlSafe } from '../sources/xml-guard';
import { servicesFailure } from './services-failure';

/** An element as fast-xml-parser gives it: children by local name, attributes as `@_name`, text as `#text`. */
export type XmlNode = Record<string, unknown>;

/** A parsed XML document: the root element's local name and the element. */
export interface XmlDocument {
  root: string;
  node: XmlNode;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * Decodes the five predefined entities and character references (XML 1.0 §4.1, §4.6), the only
 * references left once declarations are refused; with `processEntities: false` the parser keeps
 * them as written. An unknown or out-of-range reference stays as it is.
 */
export function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|lt|gt|amp|quot|apos);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref];
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  processEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  tagValueProcessor: (_name, value) => decodeReferences(value),
  attributeValueProcessor: (_name, value) => decodeReferences(value),
});

/**
 * Parses a service answer or GML text: `checkXml` first, then fast-xml-parser with entities off and
 * namespace prefixes removed (WFS, GML and OWS elements are read by their local names).
 */
export function parseXml(text: string, source: string): XmlDocument {
  checkXml(text, source);
  return parseChecked(text, source);
}

/**
 * Refuses DOCTYPE and ENTITY declarations (`checkXmlSafe`: XXE, billion laughs; `xml_doctype`),
 * then checks that the text is well-formed XML, failing `xml_invalid` naming line and column.
 */
export function checkXml(text: string, source: string): void {
  checkXmlSafe(text);
  const valid = XMLValidator.validate(text);
  if (valid !== true)
    throw servicesFailure('xml_invalid', { source, line: valid.err.line, column: valid.err.col, reason: valid.err.msg });
}

/** Parses a text (or a fragment of one) that `checkXml` has passed: its root element's name and content. */
export function parseChecked(text: string, source: string): XmlDocument {
  const parsed = parser.parse(text) as XmlNode;
  const root = Object.keys(parsed).find((k) => !k.startsWith('@_') && !k.startsWith('#') && !k.startsWith('?'));
  if (!root) throw servicesFailure('xml_invalid', { source, line: 1, column: 1, reason: 'no root element' });
  const node = parsed[root];
  return { root, node: typeof node === 'object' && node !== null ? (node as XmlNode) : { '#text': node } };
}

/** The children named `name` as a list (fast-xml-parser gives one child as a value, several as an array). */
export function children(node: unknown, name: string): XmlNode[] {
  if (!node || typeof node !== 'object') return [];
  const value = (node as XmlNode)[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map((v) =>
    typeof v === 'object' && v !== null ? (v as XmlNode) : { '#text': v },
  );
}

/** The first child named `name`, or undefined. */
export function child(node: unknown, name: string): XmlNode | undefined {
  return children(node, name)[0];
}

/** The text content of an element (its `#text`, or the value itself for a text-only element), '' when none. */
export function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node !== 'object') return String(node).trim();
  const text = (node as XmlNode)['#text'];
  return text === undefined ? '' : String(text).trim();
}

/** The text of the first child named `name` ('' when missing). */
export function childText(node: unknown, name: string): string {
  return textOf(child(node, name));
}

/** An attribute by local name (namespace prefixes are removed: `xlink:href` is `href`), '' when missing. */
export function attr(node: unknown, name: string): string {
  if (!node || typeof node !== 'object') return '';
  const value = (node as XmlNode)[`@_${name}`];
  return value === undefined ? '' : String(value).trim();
}

/**
 * Throws `service_exception` when `doc` is an OWS ExceptionReport (WFS, WMTS) or an OGC
 * ServiceExceptionReport (WMS), carrying the service's exception code and text; the text is the
 * service's own (shown as a quotation in the message).
 */
export function throwIfException(doc: XmlDocument, url: string): void {
  if (doc.root !== 'ExceptionReport' && doc.root !== 'ServiceExceptionReport') return;
  const exceptions = [...children(doc.node, 'Exception'), ...children(doc.node, 'ServiceException')];
  const first = exceptions[0];
  const text = exceptions
    .map((e) => children(e, 'ExceptionText').map(textOf).join(' ') || textOf(e))
    .filter(Boolean)
    .join(' / ');
  const code = attr(first, 'exceptionCode') || attr(first, 'code');
  throw servicesFailure('service_exception', { url, code: code || '-', text: (text || '-').slice(0, 500) });
}

import { XMLParser, type X2jOptions } from 'fast-xml-parser';

/**
 * A remote service's XML answer (capabilities, feature info) as an object, or undefined when it is
 * no well-formed XML or declares a document type with entities (never expanded either way).
 * Namespace prefixes are dropped and attributes kept as `@_name`; `options` adds to that.
 */
export function parseRemoteXml(text: string, options: Partial<X2jOptions> = {}): Record<string, unknown> | undefined {
  if (/<!DOCTYPE[^>]*\[|<!ENTITY/i.test(text.slice(0, 5000))) return undefined;
  try {
    return new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '@_',
      removeNSPrefix: true,
      processEntities: false,
      ...options,
    }).parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

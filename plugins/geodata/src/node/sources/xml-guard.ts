import { sourcesFailure } from './download-text';

/**
 * Refuses XML that declares a document type or entities, before any parser sees it: external
 * entities read the server's files or reach its network (XXE), nested ones expand without bound
 * (billion laughs). Geodata formats (GML, WFS and WMS capabilities, KML, GPX) need neither, so
 * the guard refuses every `<!DOCTYPE` and `<!ENTITY` outside comments and CDATA sections, in any
 * letter case, with `xml_doctype` naming the line and column. Parsers must still run with entity
 * processing off (fast-xml-parser: `processEntities: false`); this check does not depend on that.
 */
export function checkXmlSafe(xml: string): void {
  let i = 0;
  while (i < xml.length) {
    const open = xml.indexOf('<!', i);
    if (open < 0) return;
    if (xml.startsWith('<!--', open)) i = skipPast(xml, open, '-->');
    else if (xml.startsWith('<![CDATA[', open)) i = skipPast(xml, open, ']]>');
    else {
      const word = xml.slice(open + 2, open + 9).toUpperCase();
      if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY')) throw sourcesFailure('xml_doctype', positionOf(xml, open));
      i = open + 2;
    }
  }
}

/** The index after `close`, or the end of the text when it is missing (the parser reports that). */
function skipPast(xml: string, from: number, close: string): number {
  const at = xml.indexOf(close, from + 4);
  return at < 0 ? xml.length : at + close.length;
}

/** 1-based line and column of `index`. */
function positionOf(xml: string, index: number): { line: number; column: number } {
  const before = xml.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}

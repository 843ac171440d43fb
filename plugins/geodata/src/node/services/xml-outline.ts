/**
 * Tags of an XML text, skipping comments, CDATA sections and processing instructions: group 1 is
 * '/' for an end tag, group 2 the local name, group 3 '/' for an empty-element tag. Attribute
 * values may hold '>' (quoted).
 */
const TAG =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>|<(\/?)(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?:"[^"]*"|'[^']*'|[^'">])*?(\/?)>/g;

/** Where one child of the root element lies in the text: its local name and [start, end). */
export interface ElementSpan {
  name: string;
  start: number;
  end: number;
}

/** The local name of the root element of a well-formed text ('' when it has none). */
export function rootName(xml: string): string {
  const tags = new RegExp(TAG.source, 'g');
  for (let m; (m = tags.exec(xml));) if (m[2] !== undefined && !m[1]) return m[2];
  return '';
}

/**
 * The children of the root element of a well-formed text (checkXml has passed it), in document
 * order, so that each can be parsed alone: a large GML collection is read member by member and
 * its parse tree never exists as a whole.
 */
export function* rootChildren(xml: string): Generator<ElementSpan> {
  const tags = new RegExp(TAG.source, 'g');
  let depth = 0;
  let open: { name: string; start: number } | undefined;
  for (let m; (m = tags.exec(xml));) {
    if (m[2] === undefined) continue;
    if (m[1]) {
      depth--;
      if (depth === 1 && open) {
        yield { ...open, end: tags.lastIndex };
        open = undefined;
      }
    } else if (m[3]) {
      if (depth === 1) yield { name: m[2], start: m.index, end: tags.lastIndex };
    } else {
      if (depth === 1) open = { name: m[2], start: m.index };
      depth++;
    }
  }
}

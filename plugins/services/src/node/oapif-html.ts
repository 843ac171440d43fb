/**
 * The HTML pages of OGC API – Features (the HTML conformance class): one small, valid page per
 * resource, in the caller's language, for people who open a service address in a browser. No
 * scripts; every value escaped.
 */
import { escapeHtml } from '@werkbank/sdk';

export { escapeHtml };

/** Translates a key of the services namespace with parameters. */
export type Texts = (key: string, params?: Record<string, unknown>) => string;

export interface OapifLink {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

/** A whole page: language, title, one h1 and the body. */
export function htmlPage(lang: string, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${escapeHtml(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:sans-serif;margin:1rem 2rem;color:#1c2127}table{border-collapse:collapse}th,td{border:1px solid #8f99a8;padding:.25rem .5rem;text-align:left}a{color:#215db0}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** The page's links to other resources (HTML first), as a list under a heading. */
export function linkList(t: Texts, links: OapifLink[]): string {
  const html = links.filter((l) => l.type === 'text/html' && l.rel !== 'self' && l.rel !== 'alternate');
  const other = links.filter((l) => l.type !== 'text/html' || l.rel === 'alternate');
  const item = (l: OapifLink) => {
    const label =
      l.type && l.type !== 'text/html' && l.rel !== 'alternate' ? `${l.title ?? l.rel} (${l.type})` : (l.title ?? l.rel);
    return `<li><a href="${escapeHtml(l.href)}">${escapeHtml(label)}</a></li>`;
  };
  return `<h2>${escapeHtml(t('oapif.html.links'))}</h2>\n<ul>\n${[...html, ...other].map(item).join('\n')}\n</ul>`;
}

/** A definition list of a collection's or the landing page's facts (label, text). */
export function facts(rows: Array<[string, string | undefined]>): string {
  const present = rows.filter(([, v]) => v !== undefined && v !== '');
  if (!present.length) return '';
  return `<dl>\n${present.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('\n')}\n</dl>`;
}

/**
 * A table of features: one row per feature, its id (linked to its page) and one column per
 * property. `caption` names what the table shows.
 */
export function featureTable(
  t: Texts,
  caption: string,
  features: Array<{ id: string | number; properties: Record<string, unknown> | null }>,
  href: (id: string | number) => string,
): string {
  const keys = [...new Set(features.flatMap((f) => Object.keys(f.properties ?? {})))];
  const head = [t('oapif.html.id'), ...keys].map((k) => `<th scope="col">${escapeHtml(k)}</th>`).join('');
  const rows = features.map((f) => {
    const cells = keys.map((k) => `<td>${escapeHtml(cell(f.properties?.[k]))}</td>`).join('');
    return `<tr><th scope="row"><a href="${escapeHtml(href(f.id))}">${escapeHtml(f.id)}</a></th>${cells}</tr>`;
  });
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

/** One feature's properties as a two-column table (name, value). */
export function propertyTable(t: Texts, caption: string, properties: Record<string, unknown> | null): string {
  const rows = Object.entries(properties ?? {}).map(
    ([k, v]) => `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(cell(v))}</td></tr>`,
  );
  const head = `<tr><th scope="col">${escapeHtml(t('oapif.html.property'))}</th><th scope="col">${escapeHtml(t('oapif.html.value'))}</th></tr>`;
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead>${head}</thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
}

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

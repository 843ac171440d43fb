import { escapeHtml } from '@werkbank/sdk';
import type { HeadlineIcon } from '../common/portal-entries';

/** A view card of the portal page: one of ours (opened in the viewer) or an external one. */
export interface PortalPageView {
  name: string;
  href: string;
  external: boolean;
  image?: string;
  subline?: string;
  description?: string;
  infobox_text?: string;
  headline_icon?: HeadlineIcon;
}

/** A layer of the portal page with its service addresses. */
export interface PortalPageLayer {
  name: string;
  description?: string;
  image?: string;
  services: Array<{ label: string; href: string }>;
  /** The GeoJSON download, for layers the author marked exportable. */
  download?: string;
}

export interface PortalPage {
  lang: string;
  name: string;
  description?: string;
  views: PortalPageView[];
  layers: PortalPageLayer[];
}

export type PortalTexts = (key: string, params?: Record<string, unknown>) => string;

/** The headline icons (spec 002: sun, plant, info, map, temp) as small inline drawings. */
const ICONS: Record<HeadlineIcon, string> = {
  sun: '<circle cx="12" cy="12" r="5"/><path d="M12 1v3M12 20v3M1 12h3M20 12h3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1"/>',
  plant: '<path d="M12 22V11"/><path d="M12 11C12 6 8 3 3 3c0 5 4 8 9 8z"/><path d="M12 14c0-4 3-7 8-7 0 4-3 7-8 7z"/>',
  info: '<circle cx="12" cy="12" r="10"/><path d="M12 11v6M12 7v.5"/>',
  map: '<path d="M1 6l7-3 8 3 7-3v15l-7 3-8-3-7 3z"/><path d="M8 3v15M16 6v15"/>',
  temp: '<path d="M14 14.8V4a2 2 0 0 0-4 0v10.8a4 4 0 1 0 4 0z"/>',
};

const icon = (name: HeadlineIcon, label: string) =>
  `<span class="icon"><svg viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true" focusable="false">${ICONS[name]}</svg><span class="sr">${escapeHtml(label)}</span></span>`;

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;color:#1c2127;background:#f6f7f9}
header{background:#1f4e79;color:#fff;padding:1.5rem 2rem}header h1{margin:0}header p{margin:.5rem 0 0}
main{padding:1rem 2rem 3rem;max-width:1200px}h2{margin-top:2rem}
.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(260px,1fr));gap:1rem}
.card{background:#fff;border:1px solid #c5cbd3;border-radius:6px;overflow:hidden;display:flex;flex-direction:column}
.card img{width:100%;height:160px;object-fit:cover;display:block}.card .body{padding:.75rem 1rem}
.card h3{margin:.25rem 0;display:flex;align-items:center;gap:.5rem}.card .sub{color:#404854;margin:.25rem 0}
.card aside{background:#eef4fb;border-left:4px solid #1f4e79;padding:.5rem .75rem;margin:.5rem 0}
a{color:#1f4e79}a:focus-visible{outline:3px solid #f0b400;outline-offset:2px}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.icon{display:inline-flex;color:#1f4e79}.layers{list-style:none;padding:0}
.layers li{background:#fff;border:1px solid #c5cbd3;border-radius:6px;padding:.75rem 1rem;margin:.75rem 0}
.layers h3{margin:.25rem 0}.layers img{max-width:240px;display:block;margin:.5rem 0}
.services{display:flex;flex-wrap:wrap;gap:.75rem;padding:0;list-style:none}`;

const paragraphs = (text: string | undefined) =>
  text
    ? text
        .split(/\n{2,}/)
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join('')
    : '';

function viewCard(t: PortalTexts, v: PortalPageView): string {
  const external = v.external ? ` <span class="sr">(${escapeHtml(t('page.external'))})</span>` : '';
  const rel = v.external ? ' rel="noopener noreferrer"' : '';
  return `<li class="card">${v.image ? `<img src="${escapeHtml(v.image)}" alt="">` : ''}<div class="body">
<h3>${v.headline_icon ? icon(v.headline_icon, t(`page.icon_${v.headline_icon}`)) : ''}<a href="${escapeHtml(v.href)}"${rel}>${escapeHtml(v.name)}</a>${external}</h3>
${v.subline ? `<p class="sub">${escapeHtml(v.subline)}</p>` : ''}${paragraphs(v.description)}${
    v.infobox_text ? `<aside aria-label="${escapeHtml(t('page.infobox'))}">${paragraphs(v.infobox_text)}</aside>` : ''
  }</div></li>`;
}

function layerItem(t: PortalTexts, l: PortalPageLayer): string {
  const links = [...l.services, ...(l.download ? [{ label: t('page.download'), href: l.download }] : [])];
  return `<li><h3>${escapeHtml(l.name)}</h3>${l.image ? `<img src="${escapeHtml(l.image)}" alt="">` : ''}${paragraphs(l.description)}
${links.length ? `<ul class="services" aria-label="${escapeHtml(t('page.services_of', { name: l.name }))}">${links.map((s) => `<li><a href="${escapeHtml(s.href)}">${escapeHtml(s.label)}</a></li>`).join('')}</ul>` : ''}</li>`;
}

/**
 * The public portal page (spec 000 §2 `/portal/{slug}/`, issue 18): a landing page without scripts
 * — the portal's views as cards (image, subline, description, infobox text, headline icon),
 * external views, and its layers with their descriptions and service addresses. Every value escaped.
 */
export function portalPageHtml(t: PortalTexts, page: PortalPage): string {
  const views = page.views.length
    ? `<ul class="cards">${page.views.map((v) => viewCard(t, v)).join('\n')}</ul>`
    : `<p>${escapeHtml(t('page.no_views'))}</p>`;
  const layers = page.layers.length
    ? `<h2>${escapeHtml(t('page.layers'))}</h2><ul class="layers">${page.layers.map((l) => layerItem(t, l)).join('\n')}</ul>`
    : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(page.lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(page.name)}</h1>${page.description ? `<p>${escapeHtml(page.description)}</p>` : ''}</header>
<main>
<h2>${escapeHtml(t('page.views'))}</h2>
${views}
${layers}
</main>
</body>
</html>
`;
}

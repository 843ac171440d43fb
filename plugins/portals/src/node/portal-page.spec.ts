import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { HEADLINE_ICONS } from '../common/portal-entries';
import { portalPageHtml, type PortalPage, type PortalTexts } from './portal-page';

/** Texts that show their key (and parameters), so the page's use of each is visible. */
const t: PortalTexts = (key, params) => (params ? `${key}${JSON.stringify(params)}` : key);

const render = (page: Partial<PortalPage>) => {
  const html = portalPageHtml(t, { lang: 'de', name: 'Portal', views: [], layers: [], ...page });
  return { html, doc: new JSDOM(html).window.document };
};

/** The portal page as visitors and their screen readers get it (issue 18): structure, escaping, texts. */
describe('portals: the portal page', () => {
  it('is a complete document in the caller’s language, titled with the portal’s name, without scripts', () => {
    const { html, doc } = render({ lang: 'en', name: 'Umwelt & Natur', description: 'Daten <frei>' });
    assert.match(html, /^<!DOCTYPE html>\n<html lang="en">/);
    assert.equal(doc.title, 'Umwelt & Natur');
    assert.equal(doc.querySelector('meta[charset]')?.getAttribute('charset'), 'utf-8');
    assert.equal(doc.querySelector('meta[name="viewport"]')?.getAttribute('content'), 'width=device-width, initial-scale=1');
    assert.equal(doc.querySelector('header h1')?.textContent, 'Umwelt & Natur');
    assert.equal(doc.querySelector('header p')?.textContent, 'Daten <frei>');
    assert.equal(doc.querySelectorAll('script').length, 0);
    assert.equal(doc.querySelector('main h2')?.textContent, 'page.views');
  });

  it('leaves out the description, the layers’ heading and the cards when there are none, and says so for views', () => {
    const { doc } = render({});
    assert.equal(doc.querySelector('header p'), null);
    assert.equal(doc.querySelector('header')?.textContent, 'Portal');
    assert.deepEqual(
      [...doc.querySelectorAll('main > *')].map((e) => `${e.tagName} ${e.textContent}`),
      ['H2 page.views', 'P page.no_views'],
    );
    assert.equal(doc.querySelector('main')?.textContent?.trim(), 'page.views\npage.no_views');
  });

  it('hides screen-reader texts only visually and marks the keyboard focus (the page has no other stylesheet)', () => {
    const css = render({}).doc.querySelector('style')?.textContent ?? '';
    assert.match(css, /\.sr\{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect\(0 0 0 0\);white-space:nowrap\}/);
    assert.match(css, /a:focus-visible\{outline:3px solid #f0b400;outline-offset:2px\}/);
    // The link colour and the header's text on its background meet WCAG AA contrast.
    assert.match(css, /a\{color:#1f4e79\}/);
    assert.match(css, /header\{background:#1f4e79;color:#fff;/);
  });

  it('shows a view as a card: image, linked name with its headline icon, subline, description in paragraphs, infobox', () => {
    const { doc } = render({
      views: [
        {
          name: 'Grün <1>',
          href: '/viewer/gruen/?a=1&b=2',
          external: false,
          image: '/bild.png?x="1"',
          subline: 'Bäume & Parks',
          description: 'Erster Absatz.\n\n\nZweiter Absatz.\nMit Zeile.',
          infobox_text: 'Neu\n\nAb Mai',
          headline_icon: 'plant',
        },
      ],
    });
    const card = doc.querySelector('ul.cards > li.card')!;
    assert.ok(card);
    const img = card.querySelector('img')!;
    assert.equal(img.getAttribute('src'), '/bild.png?x="1"');
    assert.equal(img.getAttribute('alt'), '', 'the image is decoration: the name says what the card is');
    const link = card.querySelector('.body h3 a')!;
    assert.equal(link.getAttribute('href'), '/viewer/gruen/?a=1&b=2');
    assert.equal(link.textContent, 'Grün <1>');
    assert.equal(link.getAttribute('rel'), null);
    assert.equal(card.querySelector('h3')?.textContent, 'page.icon_plantGrün <1>');
    const svg = card.querySelector('h3 .icon svg')!;
    assert.equal(svg.getAttribute('aria-hidden'), 'true');
    assert.equal(svg.getAttribute('focusable'), 'false');
    assert.equal(card.querySelector('h3 .icon .sr')?.textContent, 'page.icon_plant');
    assert.equal(card.querySelector('p.sub')?.textContent, 'Bäume & Parks');
    assert.match(
      card.querySelector('.body')!.innerHTML,
      /<p class="sub">Bäume &amp; Parks<\/p><p>Erster Absatz\.<\/p><p>Zweiter Absatz\.\nMit Zeile\.<\/p><aside/,
      'the paragraphs and nothing between them',
    );
    const aside = card.querySelector('aside')!;
    assert.equal(aside.getAttribute('aria-label'), 'page.infobox');
    assert.deepEqual(
      [...aside.querySelectorAll('p')].map((p) => [p.textContent, p.className]),
      [
        ['Neu', ''],
        ['Ab Mai', ''],
      ],
    );
  });

  it('draws each headline icon, names it for screen readers, and shows a bare card without extras', () => {
    const { doc } = render({
      views: [
        ...HEADLINE_ICONS.map((icon) => ({ name: icon, href: `/viewer/${icon}/`, external: false, headline_icon: icon })),
        { name: 'Schlicht', href: '/viewer/schlicht/', external: false },
      ],
    });
    const cards = [...doc.querySelectorAll('li.card')];
    assert.equal(cards.length, HEADLINE_ICONS.length + 1);
    const drawings = new Set<string>();
    HEADLINE_ICONS.forEach((icon, i) => {
      const svg = cards[i].querySelector('svg')!;
      assert.equal(svg.getAttribute('viewBox'), '0 0 24 24');
      assert.ok(svg.children.length > 0, `${icon} draws something`);
      for (const shape of svg.children)
        assert.ok(shape.getAttribute('d') || shape.getAttribute('r'), `${icon}: a shape with its geometry`);
      drawings.add(svg.innerHTML);
      assert.equal(cards[i].querySelector('.sr')?.textContent, `page.icon_${icon}`);
    });
    assert.equal(drawings.size, HEADLINE_ICONS.length, 'each icon has its own drawing');
    const bare = cards.at(-1)!;
    assert.equal(bare.innerHTML, '<div class="body">\n<h3><a href="/viewer/schlicht/">Schlicht</a></h3>\n</div>');
  });

  it('opens an external view without handing over the page, and tells screen readers that it leaves the site', () => {
    const { doc } = render({ views: [{ name: 'Atlas', href: 'https://atlas.example.org/?a=1&b=2', external: true }] });
    const link = doc.querySelector('li.card h3 a')!;
    assert.equal(link.getAttribute('href'), 'https://atlas.example.org/?a=1&b=2');
    assert.equal(link.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(doc.querySelector('li.card h3')?.textContent, 'Atlas (page.external)');
    assert.equal(doc.querySelector('li.card h3 > .sr')?.textContent, '(page.external)');
  });

  it('lists layers under their heading with image, description, services and the download, labelled by layer', () => {
    const { doc } = render({
      layers: [
        {
          name: 'Bäume & Sträucher',
          description: 'Alle Bäume.\n\nStand 2026.',
          image: '/baum.png',
          services: [
            { label: 'WMS', href: '/services/wms/baeume?SERVICE=WMS&REQUEST=GetCapabilities' },
            { label: 'WFS', href: '/services/wfs/baeume' },
          ],
          download: '/services/geojson/baeume/',
        },
        { name: 'Leer', services: [] },
        { name: 'Nur Download', services: [], download: '/services/geojson/nur/' },
      ],
    });
    const headings = [...doc.querySelectorAll('main > h2')].map((h) => h.textContent);
    assert.deepEqual(headings, ['page.views', 'page.layers']);
    const items = [...doc.querySelectorAll('ul.layers > li')];
    assert.equal(items.length, 3);
    const [trees, empty, download] = items;
    assert.equal(trees.querySelector('h3')?.textContent, 'Bäume & Sträucher');
    assert.equal(trees.querySelector('img')?.getAttribute('src'), '/baum.png');
    assert.equal(trees.querySelector('img')?.getAttribute('alt'), '');
    assert.deepEqual(
      [...trees.querySelectorAll(':scope > p')].map((p) => p.textContent),
      ['Alle Bäume.', 'Stand 2026.'],
    );
    const services = trees.querySelector('ul.services')!;
    assert.equal(services.textContent, 'WMSWFSpage.download', 'nothing but the links');
    assert.equal(services.getAttribute('aria-label'), 'page.services_of{"name":"Bäume & Sträucher"}');
    assert.deepEqual(
      [...services.querySelectorAll('li a')].map((a) => [a.textContent, a.getAttribute('href')]),
      [
        ['WMS', '/services/wms/baeume?SERVICE=WMS&REQUEST=GetCapabilities'],
        ['WFS', '/services/wfs/baeume'],
        ['page.download', '/services/geojson/baeume/'],
      ],
    );
    assert.equal(empty.innerHTML, '<h3>Leer</h3>\n');
    assert.deepEqual(
      [...download.querySelectorAll('ul.services a')].map((a) => a.textContent),
      ['page.download'],
    );
  });
});

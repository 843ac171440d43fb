import assert from 'node:assert/strict';
import { expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';

/** The public portal page (issue 18): a landing page of views and layers, for visitors as their rights allow. */
describe('portals: the public portal page', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;

  let unnamed: { id: number };
  let rivers: { id: number };
  const page = async (client: Client, path: string, lang = 'en') => {
    const res = await client.get(path, { headers: { Accept: 'text/html', 'Accept-Language': lang } });
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      cache: res.headers.get('cache-control'),
      html: String(res.body),
    };
  };

  before(async () => {
    // An installation whose viewer address names the view's id as well as its short name.
    t = await startTestServer({
      plugins: ['types', 'magazine', 'layers', 'views', 'portals'],
      config: { viewerUrls: { view: '/viewer/{slug}/?v={id}' } },
    });
    admin = await t.admin();
    const depot = expectStatus(await admin.post('/api/v1/depot/', { name: 'Bäume', content_type: '/api/v1/type/feature/' }), 201);
    const open = expectStatus(
      await admin.post('/api/v1/layer/', {
        name: 'Bäume',
        slug: 'baeume',
        public: true,
        description: 'Straßenbäume',
        layerpiles: [depot.resource_uri],
      }),
      201,
    );
    const internal = expectStatus(
      await admin.post('/api/v1/layer/', { name: 'Leitungen', layerpiles: [depot.resource_uri] }),
      201,
    );
    const green = expectStatus(
      await admin.post('/api/v1/view/', { name: 'Stadtgrün', slug: 'stadtgruen', public: true, subline: 'Bäume & Parks' }),
      201,
    );
    const secret = expectStatus(await admin.post('/api/v1/view/', { name: 'Intern' }), 201);
    unnamed = expectStatus(
      await admin.post('/api/v1/view/', {
        name: 'Ohne Kurzname',
        public: true,
        image: '/ansicht.png',
        subline: 'Unterzeile der Ansicht',
        description: 'Beschreibung der Ansicht',
      }),
      201,
    );
    rivers = expectStatus(
      await admin.post('/api/v1/layer/', {
        name: 'Gewässer',
        public: true,
        description: 'Alle Gewässer',
        layerpiles: [depot.resource_uri],
      }),
      201,
    );
    expectStatus(
      await admin.post('/api/v1/portal/', {
        name: 'Umweltportal <Köln>',
        slug: 'umwelt',
        public: true,
        attr: { description: 'Daten zur Umwelt' },
        views: [
          { view: green.resource_uri, attr: { headline_icon: 'plant', infobox_text: 'Neu: Baumkataster', image: '/logo.svg' } },
          { view: secret.resource_uri },
          { attr: { external_url: 'https://atlas.example.org/karte' } },
          { view: `/api/v1/view/${unnamed.id}/`, name: 'Auf dem Portal', attr: { subline: 'Unterzeile des Portals' } },
          { name: 'Atlas NRW', attr: { external_url: 'https://atlas.nrw.example/?a=1&b=2' } },
        ],
        layers: [
          { layer: open.resource_uri, attr: { exportable: true } },
          { layer: internal.resource_uri, attr: { exportable: true } },
          { layer: `/api/v1/layer/${rivers.id}/`, name: 'Flüsse', attr: { description: 'Nur Flüsse', image: '/fluss.png' } },
        ],
      }),
      201,
    );
    expectStatus(await admin.post('/api/v1/portal/', { name: 'Intern', slug: 'intern', attr: { description: '  ' } }), 201);
  });
  after(() => t?.close());

  it('shows a visitor the public views as cards, external views, and the public layers with their services', async () => {
    const { status, type, cache, html } = await page(t.client(), '/portal/umwelt/');
    assert.equal(status, 200);
    assert.match(type, /^text\/html; charset=utf-8/);
    assert.equal(cache, 'no-store', 'a page that depends on the caller is not cached');
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<h1>Umweltportal &lt;Köln&gt;<\/h1><p>Daten zur Umwelt<\/p>/);
    assert.match(html, /<a href="\/viewer\/stadtgruen\/\?v=\d+">Stadtgrün<\/a>/);
    assert.match(html, /Bäume &amp; Parks/);
    assert.match(html, /Neu: Baumkataster/);
    assert.match(html, /<span class="sr">Plants<\/span>/);
    assert.doesNotMatch(html, /Intern/);
    assert.match(
      html,
      /<a href="https:\/\/atlas.example.org\/karte" rel="noopener noreferrer">\(https:\/\/atlas.example.org\/karte\)<\/a>/,
    );
    assert.match(html, /<h3>Bäume<\/h3><p>Straßenbäume<\/p>/);
    const services = (name: string) =>
      [
        ...(new RegExp(`aria-label="Services of ${name}">(.*?)</ul>`).exec(html)?.[1] ?? '').matchAll(
          /<a href="([^"]*)">([^<]*)</g,
        ),
      ].map((m) => `${m[2]} ${m[1]}`);
    assert.deepEqual(services('Bäume'), [
      'WMS /services/wms/baeume?SERVICE=WMS&amp;REQUEST=GetCapabilities',
      'WFS /services/wfs/baeume?SERVICE=WFS&amp;REQUEST=GetCapabilities',
      'OGC API – Features /services/ogc/baeume/',
      'WMTS /services/wmts/baeume?SERVICE=WMTS&amp;REQUEST=GetCapabilities',
      'Download (GeoJSON) /services/geojson/baeume/',
    ]);
    assert.doesNotMatch(html, /Leitungen/);
    // A layer without a short name is offered by its id; the portal's name, description and image come first.
    assert.match(html, /<h3>Flüsse<\/h3><img src="\/fluss.png" alt=""><p>Nur Flüsse<\/p>/);
    assert.doesNotMatch(html, /Gewässer/);
    assert.deepEqual(services('Flüsse'), [
      `WMS /services/wms/${rivers.id}?SERVICE=WMS&amp;REQUEST=GetCapabilities`,
      `WFS /services/wfs/${rivers.id}?SERVICE=WFS&amp;REQUEST=GetCapabilities`,
      `OGC API – Features /services/ogc/${rivers.id}/`,
      `WMTS /services/wmts/${rivers.id}?SERVICE=WMTS&amp;REQUEST=GetCapabilities`,
    ]);
    // A view without a short name opens by its id; what the portal says of it comes before the view's own texts.
    assert.match(
      html,
      new RegExp(
        `<img src="/ansicht.png" alt=""><div class="body">\n<h3><a href="/viewer/${unnamed.id}/\\?v=${unnamed.id}">Auf dem Portal</a></h3>\n` +
          '<p class="sub">Unterzeile des Portals</p><p>Beschreibung der Ansicht</p></div>',
      ),
    );
    assert.match(html, /<a href="https:\/\/atlas.nrw.example\/\?a=1&amp;b=2" rel="noopener noreferrer">Atlas NRW<\/a>/);
    assert.doesNotMatch(html, /<script/);
  });

  it('speaks the caller’s language, shows signed-in readers what they may read, and keeps internal portals closed', async () => {
    const de = await page(t.client(), '/portal/umwelt/', 'de');
    assert.match(de.html, /<html lang="de">/);
    assert.match(de.html, /<h2>Ansichten<\/h2>/);
    const own = await page(admin, '/portal/umwelt/');
    assert.match(own.html, /Intern/);
    // The author sees the internal layer with its services and, as the entry asks, its download.
    assert.match(own.html, /<h3>Leitungen<\/h3>\n<ul class="services"[^>]*>.*Download \(GeoJSON\)/);
    // A signed-in user without rights on the internal view and layer sees what a visitor sees.
    const other = (await t.user()).client;
    const theirs = await page(other, '/portal/umwelt/');
    assert.equal(theirs.status, 200);
    assert.match(theirs.html, /Stadtgrün/);
    assert.doesNotMatch(theirs.html, /Intern|Leitungen/);
    assert.equal((await page(other, '/portal/intern/')).status, 404);
    assert.equal((await page(t.client(), '/portal/intern/')).status, 404);
    const intern = await page(admin, '/portal/intern/');
    assert.equal(intern.status, 200);
    assert.match(intern.html, /<h1>Intern<\/h1><\/header>/, 'a blank description is none');
    assert.equal((await page(t.client(), '/portal/gibt_es_nicht/')).status, 404);
  });
});

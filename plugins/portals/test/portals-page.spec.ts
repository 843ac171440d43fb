import assert from 'node:assert/strict';
import { expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';

/** The public portal page (issue 18): a landing page of views and layers, for visitors as their rights allow. */
describe('portals: the public portal page', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;

  const page = async (client: Client, path: string, lang = 'en') => {
    const res = await client.get(path, { headers: { Accept: 'text/html', 'Accept-Language': lang } });
    return { status: res.status, type: res.headers.get('content-type') ?? '', html: String(res.body) };
  };

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'layers', 'views', 'portals'] });
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
        ],
        layers: [{ layer: open.resource_uri, attr: { exportable: true } }, { layer: internal.resource_uri }],
      }),
      201,
    );
    expectStatus(await admin.post('/api/v1/portal/', { name: 'Intern', slug: 'intern' }), 201);
  });
  after(() => t?.close());

  it('shows a visitor the public views as cards, external views, and the public layers with their services', async () => {
    const { status, type, html } = await page(t.client(), '/portal/umwelt/');
    assert.equal(status, 200);
    assert.match(type, /^text\/html/);
    assert.match(html, /<html lang="en">/);
    assert.match(html, /<h1>Umweltportal &lt;Köln&gt;<\/h1>/);
    assert.match(html, /<a href="\/viewer\/stadtgruen\/">Stadtgrün<\/a>/);
    assert.match(html, /Bäume &amp; Parks/);
    assert.match(html, /Neu: Baumkataster/);
    assert.match(html, /<span class="sr">Plants<\/span>/);
    assert.doesNotMatch(html, /Intern/);
    assert.match(
      html,
      /<a href="https:\/\/atlas.example.org\/karte" rel="noopener noreferrer">\(https:\/\/atlas.example.org\/karte\)<\/a>/,
    );
    assert.match(html, /<h3>Bäume<\/h3>/);
    assert.match(html, /Straßenbäume/);
    assert.match(html, /href="\/services\/wms\/baeume\?SERVICE=WMS&amp;REQUEST=GetCapabilities"/);
    assert.match(html, /href="\/services\/geojson\/baeume\/">Download \(GeoJSON\)/);
    assert.doesNotMatch(html, /Leitungen/);
    assert.doesNotMatch(html, /<script/);
  });

  it('speaks the caller’s language, shows signed-in readers what they may read, and keeps internal portals closed', async () => {
    const de = await page(t.client(), '/portal/umwelt/', 'de');
    assert.match(de.html, /<html lang="de">/);
    assert.match(de.html, /<h2>Ansichten<\/h2>/);
    const own = await page(admin, '/portal/umwelt/');
    assert.match(own.html, /Intern/);
    assert.match(own.html, /Leitungen/);
    assert.equal((await page(t.client(), '/portal/intern/')).status, 404);
    assert.equal((await page(admin, '/portal/intern/')).status, 200);
    assert.equal((await page(t.client(), '/portal/gibt_es_nicht/')).status, 404);
  });
});

import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import type { Layer } from '../src/common/layers-api';
import type { MetadataAttributeType, MetadataGroup } from '../src/common/metadata';
import { newLayer, PLUGINS } from './layers-support';
import { owslibRead } from './owslib';

/** Metadata (spec 000 §7, spec 001 §2.2, §3.3, §5.1; decision 0066): types, groups, values, the ISO export. */
describe('layers: metadata types, values and the ISO 19139 export', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  before(async () => {
    t = await startTestServer({
      plugins: PLUGINS,
      config: { serviceUrls: { wms: '/services/wms/{name}?SERVICE=WMS', wfs: 'https://geo.example.org/wfs/{name}' } },
    });
    admin = await t.admin();
  });
  after(() => t?.close());

  it('keeps attribute types and groups; only administrators write them', async () => {
    const group = expectStatus<MetadataGroup>(await admin.post('/api/v1/metadatagroup/', { name: 'Allgemein' }), 201);
    const type = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', {
        display_name: 'Lizenz',
        description: 'Unter welcher Lizenz die Daten stehen',
        group: group.resource_uri,
        datatype: 'select',
        options: ['CC-BY 4.0', 'DL-DE/Zero 2.0'],
      }),
      201,
    );
    assert.deepEqual(
      [type.group, type.datatype, type.options, type.display],
      [group.resource_uri, 'select', ['CC-BY 4.0', 'DL-DE/Zero 2.0'], true],
    );
    assertError(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'X', datatype: 'number' }),
      400,
      'invalid_field',
    );
    assertError(await admin.post('/api/v1/metadataattributetype/', { display_name: 'X', options: [1] }), 400, 'invalid_field');
    const bob = await t.user();
    const list = expectStatus<{ objects: MetadataAttributeType[] }>(await bob.client.get('/api/v1/metadataattributetype/'), 200);
    assert.ok(list.objects.some((o) => o.id === type.id));
    const refused = await bob.client.post('/api/v1/metadatagroup/', { name: 'Meins' });
    assert.equal(refused.status, 403);
    assert.equal((await bob.client.patch(type.resource_uri, { display_name: 'Y' })).status, 403);
  });

  it('omits empty values and stores null when none remain; refuses other shapes', async () => {
    const type = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Quelle' }),
      201,
    );
    const layer = await newLayer(admin, {
      metadata: {
        values: [
          { attributetype: type.resource_uri, value: 'Amt' },
          { attributetype: '/api/v1/metadataattributetype/99/', value: ' ' },
        ],
      },
    });
    assert.deepEqual(layer.metadata, { values: [{ attributetype: type.resource_uri, value: 'Amt' }] });
    const cleared = expectStatus<Layer>(
      await admin.patch(layer.resource_uri, { metadata: { values: [{ attributetype: type.resource_uri, value: '' }] } }),
      200,
    );
    assert.equal(cleared.metadata, null);
    assertError(await admin.patch(layer.resource_uri, { metadata: { values: [{ value: 'x' }] } }), 400, 'invalid_field');
    assertError(await admin.patch(layer.resource_uri, { metadata: ['x'] }), 400, 'invalid_field');
  });

  it('exports ISO 19139 that OWSLib reads back: title, abstract, extent, CRS, keywords, contact, services', async () => {
    const abstractType = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Kurzbeschreibung', iso: 'abstract' }),
      201,
    );
    const orgType = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Stelle', iso: 'organisation' }),
      201,
    );
    const layer = await newLayer(admin, {
      name: 'Bäume <&> "Sträucher"',
      slug: 'baeume',
      description: 'fallback',
      selection_contact: 'Grünflächenamt\ngruen@example.org',
      bbox: [6.9, 51.3, 7.2, 51.55],
      time_min: '2020-01-01T00:00:00.000Z',
      time_max: '2024-12-31T23:59:59.000Z',
      metadata: {
        values: [
          { attributetype: abstractType.resource_uri, value: 'Alle Straßenbäume & ihre Arten' },
          { attributetype: orgType.resource_uri, value: 'Stadt <Essen>' },
        ],
      },
    });
    const tag = expectStatus<{ resource_uri: string }>(await admin.post('/api/v2/backend/tags/', { name: 'Umwelt' }), 201);
    expectStatus(await admin.patch(`${tag.resource_uri}assign-to?resource_ids=${layer.resource_uri}`), 200);

    const res = await admin.get(`${layer.resource_uri}download.xml`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^application\/xml/);
    const xml = String(res.body);
    assert.ok(!xml.includes('<&>'), 'special characters are escaped');
    const md = owslibRead(xml);
    assert.equal(md.identifier, `${t.url}${layer.resource_uri}`);
    assert.equal(md.title, 'Bäume <&> "Sträucher"');
    assert.equal(md.abstract, 'Alle Straßenbäume & ihre Arten');
    assert.deepEqual(md.bbox, [6.9, 51.3, 7.2, 51.55]);
    assert.deepEqual(md.temporal, ['2020-01-01T00:00:00.000Z', '2024-12-31T23:59:59.000Z']);
    assert.equal(md.crs, 'EPSG:4326');
    assert.deepEqual(md.keywords, ['Umwelt']);
    assert.equal(md.organisation, 'Stadt <Essen>');
    assert.equal(md.email, 'gruen@example.org');
    assert.deepEqual(
      (md.links as string[][]).map(([url, protocol]) => [url, protocol]),
      [
        ['https://geo.example.org/wfs/baeume', 'OGC:WFS'],
        [`${t.url}/services/wms/baeume?SERVICE=WMS`, 'OGC:WMS'],
      ],
    );
    assert.equal(md.hierarchy, 'dataset');

    const bob = await t.user();
    assertError(await bob.client.get(`${layer.resource_uri}download.xml`), 404, 'not_found');
    assert.equal((await t.client().get(`${layer.resource_uri}download.xml`)).status, 401);
  });
});

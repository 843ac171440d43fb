import assert from 'node:assert/strict';
import { assertError, expectStatus, type Client, type TestServer } from '@werkbank/testing/node';
import { newDepot } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';
import type { MetadataAttributeType, MetadataObject } from '../src/common/metadata';
import { featureDepot, newLayer, layersServer } from './layers-support';
import { owslibRead } from './owslib';

/** `/api/v2/metadata/` for layers and depots, and the depot's ISO 19139 export (spec 002 §2, decision 0063). */
describe('layers: /api/v2/metadata/ for layers and depots', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let licence: MetadataAttributeType;
  let date: MetadataAttributeType;
  layersServer((s) => ({ t, admin } = s));
  before(async () => {
    licence = expectStatus(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Lizenz', datatype: 'select', options: ['CC-BY 4.0'] }),
      201,
    );
    date = expectStatus(await admin.post('/api/v1/metadataattributetype/', { display_name: 'Stand', datatype: 'date' }), 201);
  });
  const put = (c: Client, path: string, body: unknown, opts?: { headers?: Record<string, string> }) =>
    c.request('PUT', path, body, opts);
  const grant = (id: number, perms: string[]) => ({ permissions: [{ user: `/api/v1/user/${id}/`, perms }] });

  it('writes a depot’s typed values beside its other metadata, and reads them by address or ?resource=', async () => {
    const depot = await newDepot(admin, 'feature', { metadata: { Quelle: 'Amt' } });
    const at = `/api/v2/metadata/depot/${depot.id}/`;
    const values = [
      { attributetype: licence.resource_uri, value: 'CC-BY 4.0' },
      { attributetype: date.resource_uri, value: '2026-11-27' },
      { attributetype: date.resource_uri.replace(/\d+\/$/, '999999/'), value: '' },
    ];
    const written = expectStatus<MetadataObject>(await put(admin, at, { values }), 200);
    assert.deepEqual(written, {
      resource_uri: at,
      resource: depot.resource_uri,
      kind: 'depot',
      name: depot.name,
      values: values.slice(0, 2),
      access: ['read', 'write'],
      download: `${depot.resource_uri}download.xml`,
    });
    const stored = expectStatus<{ metadata: unknown }>(await admin.get(depot.resource_uri), 200);
    assert.deepEqual(stored.metadata, { Quelle: 'Amt', values: values.slice(0, 2) }, 'the key/value pairs stay');
    const found = expectStatus<MetadataObject>(await admin.get(`/api/v2/metadata/?resource=${depot.resource_uri}`), 200);
    assert.deepEqual(found, written);
    const cleared = expectStatus<MetadataObject>(await admin.patch(at, { values: [] }), 200);
    assert.deepEqual(cleared.values, []);
    assert.deepEqual(expectStatus<{ metadata: unknown }>(await admin.get(depot.resource_uri), 200).metadata, { Quelle: 'Amt' });
    const plain = await newDepot(admin, 'feature');
    expectStatus(await put(admin, `/api/v2/metadata/depot/${plain.id}/`, { values: values.slice(0, 1) }), 200);
    expectStatus(await put(admin, `/api/v2/metadata/depot/${plain.id}/`, { values: [] }), 200);
    assert.equal(
      expectStatus<{ metadata: unknown }>(await admin.get(plain.resource_uri), 200).metadata,
      null,
      'none left is null',
    );
  });

  it('writes a layer’s values as a change of the layer', async () => {
    const layer = await newLayer(admin);
    const values = [{ attributetype: licence.resource_uri, value: 'CC-BY 4.0' }];
    const out = expectStatus<MetadataObject>(await put(admin, `/api/v2/metadata/layer/${layer.id}/`, { values }), 200);
    assert.deepEqual([out.kind, out.resource, out.values], ['layer', layer.resource_uri, values]);
    const stored = expectStatus<Layer>(await admin.get(layer.resource_uri), 200);
    assert.deepEqual([stored.metadata, stored.revision], [{ values }, layer.revision + 1]);
  });

  it('applies the object’s own permissions and refuses other kinds and shapes', async () => {
    const bob = await t.user();
    const depot = await newDepot(admin, 'feature');
    const layer = await newLayer(admin);
    const at = `/api/v2/metadata/depot/${depot.id}/`;
    const values = [{ attributetype: licence.resource_uri, value: 'CC-BY 4.0' }];
    assertError(await bob.client.get(at), 404, 'not_found');
    assertError(await bob.client.get(`/api/v2/metadata/layer/${layer.id}/`), 404, 'not_found');
    assertError(await put(bob.client, at, { values }), 404, 'not_found');
    expectStatus(await admin.patch(depot.resource_uri, grant(bob.id, ['read'])), 200);
    assert.deepEqual(expectStatus<MetadataObject>(await bob.client.get(at), 200).access, ['read']);
    assertError(await put(bob.client, at, { values }), 403, 'permission_denied');
    expectStatus(await admin.patch(depot.resource_uri, grant(bob.id, ['read', 'write'])), 200);
    expectStatus(await put(bob.client, at, { values }), 200);
    assert.equal((await t.client().get(at)).status, 401);

    assertError(await admin.get('/api/v2/metadata/user/1/'), 404, 'not_found');
    assertError(await admin.get('/api/v2/metadata/?resource=/api/v1/user/1/'), 400, 'invalid_parameter');
    assertError(await admin.get('/api/v2/metadata/?resource=nonsense'), 400, 'invalid_parameter');
    const bad = async (body: unknown, field: string) => {
      const res = await put(admin, at, body);
      assertError(res, 400, 'invalid_field');
      assert.equal(res.body.field, field);
    };
    await bad({ values: 'x' }, 'values');
    await bad({ values: [{ value: 'x' }] }, 'values');
    await bad({ values: [{ attributetype: '/api/v1/metadataattributetype/999999/', value: 'x' }] }, 'values[0].attributetype');
    await bad(
      {
        values: [
          { attributetype: licence.resource_uri, value: 'CC-BY 4.0' },
          { attributetype: date.resource_uri, value: '27.11.2026' },
        ],
      },
      'values[1].value',
    );
    const de = await put(
      admin,
      at,
      { values: [{ attributetype: date.resource_uri, value: 'gestern' }] },
      { headers: { 'Accept-Language': 'de' } },
    );
    assertError(de, 400, 'invalid_field', /jjjj-mm-tt/);
  });

  it('exports a depot’s metadata as ISO 19139 that OWSLib reads back', async () => {
    const title = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Titel', iso: 'title' }),
      201,
    );
    const org = expectStatus<MetadataAttributeType>(
      await admin.post('/api/v1/metadataattributetype/', { display_name: 'Stelle', iso: 'organisation' }),
      201,
    );
    const depot = await featureDepot(admin, [{ name: 'Eiche' }]);
    expectStatus(await admin.patch(depot.resource_uri, { description: 'Bäume & Sträucher' }), 200);
    expectStatus(
      await put(admin, `/api/v2/metadata/depot/${depot.id}/`, {
        values: [
          { attributetype: title.resource_uri, value: 'Straßenbäume <Essen>' },
          { attributetype: org.resource_uri, value: 'Grünflächenamt' },
        ],
      }),
      200,
    );
    const res = await admin.get(`${depot.resource_uri}download.xml`);
    assert.equal(res.status, 200);
    assert.match(String(res.headers.get('content-type')), /^application\/xml/);
    const md = owslibRead(String(res.body));
    assert.equal(md.identifier, `${t.url}${depot.resource_uri}`);
    assert.equal(md.title, 'Straßenbäume <Essen>');
    assert.equal(md.abstract, 'Bäume & Sträucher');
    assert.equal(md.organisation, 'Grünflächenamt');
    assert.deepEqual(md.bbox, [7, 51, 7, 51]);
    assert.equal(md.crs, 'EPSG:4326');
    const bob = await t.user();
    assertError(await bob.client.get(`${depot.resource_uri}download.xml`), 404, 'not_found');
    assert.equal((await t.client().get(`${depot.resource_uri}download.xml`)).status, 401);
  });
});

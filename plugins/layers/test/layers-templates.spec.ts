import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import { addDatum, newDepot, type Datum } from '@werkbank/plugin-magazine/testing';
import type { Layer } from '../src/common/layers-api';
import { featureDepot, newLayer, PLUGINS } from './layers-support';

const TEMPLATE = {
  layer_type: 'feature',
  time_min: '2020-01-01T00:00:00Z',
  time_max: '2024-12-31T00:00:00Z',
  attr: { min_zoom: 4, max_zoom: 16 },
  selection_fields: [{ key: 'name', displayName: 'Baumart', type: 'title', visible: true }],
  scope: { selection_fields: 'template' },
};
const CREATE_SWITCHBOARD = '/api/v2/switchboard/create/';
const q = encodeURIComponent;

/** Layer templates (spec 001 §3.1, spec 000 §7 "Create from template"; decision 0064). */
describe('layers: layer templates, layers and switchboards made from them', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;
  let templates: Awaited<ReturnType<typeof newDepot>>;
  let template: Datum;
  before(async () => {
    t = await startTestServer({ plugins: [...PLUGINS, 'switchboards'] });
    admin = await t.admin();
    templates = await newDepot(admin, 'layertemplate');
    template = await addDatum(admin, templates, TEMPLATE);
  });
  after(() => t?.close());

  it('stores layer templates as datums of the type layertemplate and refuses ill-formed ones', async () => {
    const type = expectStatus<{ template: Record<string, unknown> }>(await admin.get('/api/v1/type/layertemplate/'), 200);
    assert.deepEqual(type.template, {
      layer_type: 'feature',
      time_min: null,
      time_max: null,
      attr: {},
      selection_fields: [],
      scope: { selection_fields: 'template' },
    });
    const fresh = expectStatus<Record<string, unknown>>(await admin.get(`/api/v1/datum/create-in-depot/${templates.id}/`), 200);
    assert.equal(fresh.layer_type, 'feature');
    assertError(
      await admin.post(`/api/v1/datum/create-in-depot/${templates.id}/`, { ...TEMPLATE, layer_typo: 'x' }),
      400,
      'invalid_value',
    );
    assertError(
      await admin.post(`/api/v1/datum/create-in-depot/${templates.id}/`, { ...TEMPLATE, attr: { min_zoom: 30 } }),
      400,
      'invalid_value',
    );
    assertError(
      await admin.post(`/api/v1/datum/create-in-depot/${templates.id}/`, { ...TEMPLATE, layer_type: 'raster' }),
      400,
      'invalid_value',
    );
  });

  it('gives an unsaved layer with the template applied (create_layer ?template= and ?template_layer=)', async () => {
    const draft = expectStatus<Record<string, unknown>>(
      await admin.get(`/api/v1/layer/create_layer/?template=${q(template.resource_uri)}`),
      200,
    );
    assert.equal(draft.type, 'feature');
    assert.deepEqual(draft.attr, TEMPLATE.attr);
    assert.deepEqual(draft.selection_fields, TEMPLATE.selection_fields);
    assert.equal(draft.time_min, TEMPLATE.time_min);
    assert.equal(draft.time_max, TEMPLATE.time_max);
    assert.deepEqual(draft.layerpiles, []);
    assertError(
      await admin.get(`/api/v1/layer/create_layer/?layertype=wfs&template=${q(template.resource_uri)}`),
      400,
      'template_type',
    );
    const model = await newLayer(admin, { type: 'wfs', attr: { max_zoom: 12 }, time_min: '2021-05-01T00:00:00Z' });
    const fromLayer = expectStatus<Record<string, unknown>>(
      await admin.get(`/api/v1/layer/create_layer/?template_layer=${model.id}`),
      200,
    );
    assert.equal(fromLayer.type, 'wfs');
    assert.deepEqual(fromLayer.attr, { max_zoom: 12 });
    assert.equal(new Date(String(fromLayer.time_min)).toISOString(), '2021-05-01T00:00:00.000Z');
  });

  it('creates a layer from a template with the body’s own fields (POST create_from_template)', async () => {
    const depot = await featureDepot(admin, [{ name: 'Eiche', tree_id: 4 }]);
    const layer = expectStatus<Layer>(
      await admin.post(`/api/v1/layer/create_from_template/?template=${q(template.resource_uri)}`, {
        name: 'Bäume',
        layerpiles: [depot.resource_uri],
      }),
      201,
    );
    assert.equal(layer.name, 'Bäume');
    assert.equal(layer.type, 'feature');
    assert.deepEqual(layer.attr, TEMPLATE.attr);
    assert.deepEqual(layer.selection_fields, TEMPLATE.selection_fields);
    assert.equal(new Date(String(layer.time_min)).toISOString(), '2020-01-01T00:00:00.000Z');
    assert.deepEqual(
      layer.layerpiles.map((p) => p.depot),
      [depot.resource_uri],
    );
    // The body goes over the template.
    const own = expectStatus<Layer>(
      await admin.post(`/api/v1/layer/create_from_template/?template=${q(template.resource_uri)}`, {
        name: 'Eigene Zoomstufen',
        attr: { min_zoom: 2 },
      }),
      201,
    );
    assert.deepEqual(own.attr, { min_zoom: 2 });
    // scope.selection_fields all_attributes: the template's fields, then every other attribute of the piles.
    const all = await addDatum(admin, templates, { ...TEMPLATE, scope: { selection_fields: 'all_attributes' } });
    const wide = expectStatus<Layer>(
      await admin.post(`/api/v1/layer/create_from_template/?template=${q(all.resource_uri)}`, {
        name: 'Alle Attribute',
        layerpiles: [depot.resource_uri],
      }),
      201,
    );
    assert.deepEqual(wide.selection_fields, [
      TEMPLATE.selection_fields[0],
      { key: 'tree_id', displayName: 'Tree ID', type: 'text', visible: true },
    ]);
    // A layer as template (template_layer).
    const copy = expectStatus<Layer>(
      await admin.post(`/api/v1/layer/create_from_template/?template_layer=${q(layer.resource_uri)}`, { name: 'Kopie' }),
      201,
    );
    assert.deepEqual([copy.type, copy.attr, copy.selection_fields], [layer.type, layer.attr, layer.selection_fields]);
  });

  it('refuses unknown, unreadable, mistyped and invalid templates with their reason in both languages', async () => {
    const de = { headers: { 'Accept-Language': 'de' } };
    const en = { headers: { 'Accept-Language': 'en' } };
    const from = (query: string, body: Record<string, unknown> = { name: 'x' }, opts = en) =>
      admin.post(`/api/v1/layer/create_from_template/?${query}`, body, opts);
    assertError(await from('template=/api/v1/datum/999999/', {}, de), 404, 'unknown_template', /gibt es nicht/);
    assertError(await from('template=/api/v1/datum/999999/'), 404, 'unknown_template', /does not exist/);
    assertError(await from('template_layer=999999'), 404, 'unknown_template_layer', /layer 999999/);
    assertError(await from('template=nonsense'), 400, 'invalid_parameter', /layer template datum/);
    assertError(await from('template_layer=nonsense'), 400, 'invalid_parameter');
    assertError(await from(`template=${q(template.resource_uri)}&template_layer=1`), 400, 'template_conflict');
    assertError(await from(''), 400, 'invalid_parameter', /template/);
    const strings = await newDepot(admin, 'string');
    const word = await addDatum(admin, strings, { value: 'kein' });
    assertError(await from(`template=${q(word.resource_uri)}`), 400, 'not_a_layer_template', /string/);
    const backwards = await addDatum(admin, templates, {
      ...TEMPLATE,
      time_min: '2030-01-01T00:00:00Z',
      time_max: '2020-01-01T00:00:00Z',
    });
    assertError(await from(`template=${q(backwards.resource_uri)}`, {}, de), 400, 'invalid_template', /nicht verwendbar/);
    const bob = await t.user();
    assertError(
      await bob.client.get(`/api/v1/layer/create_layer/?template=${q(template.resource_uri)}`),
      404,
      'unknown_template',
    );
    // The generic create takes no query: a template there is refused, never ignored.
    assertError(await admin.post(`/api/v1/layer/?template=${q(template.resource_uri)}`, { name: 'y' }), 400, 'unknown_parameter');
  });

  it('creates a switchboard from a layer template or a template layer, holding it in a frame', async () => {
    const made = expectStatus<{ resource_uri: string; switchboard_id: number; name: string; frame: string }>(
      await admin.post(`${CREATE_SWITCHBOARD}?template=${q(template.resource_uri)}`, { name: 'Bäume aufbereiten' }),
      200,
    );
    assert.equal(made.name, 'Bäume aufbereiten');
    const canvas = expectStatus<{ frames: Array<{ resource_uri: string; content_type: string }> }>(
      await admin.get(`/api/v1/switchboard/${made.switchboard_id}/reload/`),
      200,
    );
    assert.deepEqual(
      canvas.frames.map((f) => [f.resource_uri, f.content_type]),
      [[made.frame, '/api/v1/type/layertemplate/']],
    );
    const content = expectStatus<{ objects: Array<Record<string, unknown>> }>(await admin.get(`${made.frame}content/`), 200);
    assert.deepEqual(
      content.objects.map((o) => [o.layer_type, o.attr, o.selection_fields]),
      [[TEMPLATE.layer_type, TEMPLATE.attr, TEMPLATE.selection_fields]],
    );

    const model = await newLayer(admin, { name: 'Gewässer', type: 'wfs', attr: { min_zoom: 3 } });
    const fromLayer = expectStatus<{ switchboard_id: number; name: string; frame: string }>(
      await admin.get(`${CREATE_SWITCHBOARD}?template_layer=${q(model.resource_uri)}`),
      200,
    );
    assert.equal(fromLayer.name, 'Layer template from “Gewässer”', 'no name given: the template’s');
    const held = expectStatus<{ objects: Array<Record<string, unknown>> }>(await admin.get(`${fromLayer.frame}content/`), 200);
    assert.deepEqual([held.objects[0].layer_type, held.objects[0].attr], ['wfs', { min_zoom: 3 }]);

    assertError(
      await admin.post(
        `${CREATE_SWITCHBOARD}?template=/api/v1/datum/999999/`,
        { name: 'x' },
        { headers: { 'Accept-Language': 'de' } },
      ),
      404,
      'unknown_template',
      /Layer-Vorlage/,
    );
    assertError(await admin.post(CREATE_SWITCHBOARD, { name: 'x', template: 'nonsense' }), 400, 'invalid_parameter');
    assertError(
      await admin.post(CREATE_SWITCHBOARD, { name: 'x', template: template.resource_uri, template_layer: model.resource_uri }),
      400,
      'template_conflict',
    );
    const bob = await t.user();
    assertError(
      await bob.client.post(`${CREATE_SWITCHBOARD}?template_layer=${model.id}`, { name: 'x' }),
      404,
      'unknown_template_layer',
    );
    const list = expectStatus<{ objects: Array<{ name: string }> }>(await bob.client.get('/api/v1/switchboard/'), 200);
    assert.deepEqual(list.objects, [], 'a refused template makes no switchboard');
  });
});

/** Without the layers plugin the Switchboards refuse a template instead of ignoring it. */
describe('layers: switchboard templates without the layers plugin', function () {
  this.timeout(60_000);
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'switchboards'] });
  });
  after(() => t?.close());

  it('answers 501 templates_unavailable', async () => {
    const admin = await t.admin();
    const res = await admin.post(`${CREATE_SWITCHBOARD}?template=/api/v1/datum/1/`, { name: 'x' });
    assertError(res, 501, 'templates_unavailable', /layers add-on/);
    assertError(await admin.get(`${CREATE_SWITCHBOARD}?name=x&template_layer=1`), 501, 'templates_unavailable');
    expectStatus(await admin.get(`${CREATE_SWITCHBOARD}?name=plain`), 200);
  });
});

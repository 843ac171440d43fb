import assert from 'node:assert/strict';
import type { SwitchboardMap, SwitchboardMapFrame } from '@werkbank/sdk';
import { assertError, expectStatus } from '@werkbank/testing/node';
import {
  addFrame,
  contentOf,
  FRAMES,
  grant,
  newSwitchboard,
  switchboardServer,
  type Obj,
  type User,
} from './switchboard-support';

const point = (lon: number, lat: number, properties: Record<string, unknown> = {}) => ({
  feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties },
});

const LINE = {
  feature: {
    type: 'Feature',
    geometry: {
      type: 'LineString',
      coordinates: [
        [7, 51],
        [8, 52],
      ],
    },
    properties: {},
  },
};

/** The reply as the viewer reads it; features and imagery loosely typed, for assertions. */
type MapReply = Omit<SwitchboardMap, 'frames'> & {
  frames: Array<
    Omit<SwitchboardMapFrame, 'features' | 'imagery'> & {
      features: Array<{ id: number; geometry: { type: string; coordinates: unknown }; properties: Record<string, unknown> }>;
      imagery: unknown[];
    }
  >;
};

/** The switchboard preview's map (decision 0090): the frames visible on the map, as the viewer draws them. */
describe('Switchboard preview map', function () {
  this.timeout(60_000);
  const server = switchboardServer();
  let alice: User;
  let bob: User;
  before(() => ({ alice, bob } = server.get()));
  const mapOf = async (c: User['client'], sb: Obj) => expectStatus<MapReply>(await c.get(`${sb.resource_uri}map/`), 200);

  it('gives the visible feature and bbox frames with their items as features (id = item index), not hidden or other frames', async () => {
    const sb = await newSwitchboard(alice.client, { name: 'Rivers' });
    const places = await addFrame(
      alice.client,
      sb,
      'feature',
      [
        point(13.4, 52.5, { name: 'Berlin' }),
        { feature: { type: 'Feature', geometry: null, properties: {} } },
        point(9.99, 53.55),
      ],
      {
        name: 'Places',
        content_visible: true,
        content_edit: true,
      },
    );
    const boxes = await addFrame(alice.client, sb, 'bbox', [{ value: [6, 47, 15, 55] }], { content_visible: true });
    await addFrame(alice.client, sb, 'feature', [point(1, 1)], { name: 'Hidden' });
    await addFrame(alice.client, sb, 'string', [{ value: 'x' }], { content_visible: true });
    const photos = await addFrame(
      alice.client,
      sb,
      'wms',
      [{ tms_url: 'https://geo.example/wms?SERVICE=WMS', layers: 'Luftbild', bbox: [6, 50, 7, 51] }],
      { name: 'Luftbild', content_visible: true, content_edit: true },
    );

    const map = await mapOf(alice.client, sb);
    assert.equal(map.name, 'Rivers');
    assert.deepEqual(
      map.frames.map((f) => [f.uri, f.name, f.type_name, f.edit, f.total, f.truncated]),
      [
        [places.resource_uri, 'Places', 'feature', true, 3, false],
        [boxes.resource_uri, '', 'bbox', false, 1, false],
        // Services are shown, not drawn into.
        [photos.resource_uri, 'Luftbild', 'wms', false, 1, false],
      ],
    );
    // The item without coordinates is left out; the others keep their index.
    assert.deepEqual(
      map.frames[0].features.map((f) => [f.id, f.geometry.coordinates, f.properties]),
      [
        [0, [13.4, 52.5], { name: 'Berlin' }],
        [2, [9.99, 53.55], {}],
      ],
    );
    assert.deepEqual(map.frames[1].features[0].geometry, {
      type: 'Polygon',
      coordinates: [
        [
          [6, 47],
          [15, 47],
          [15, 55],
          [6, 55],
          [6, 47],
        ],
      ],
    });
    assert.deepEqual(map.frames[2].imagery, [
      {
        kind: 'wms',
        url: 'https://geo.example/wms',
        layers: 'Luftbild',
        styles: '',
        format: 'image/png',
        transparent: true,
        version: '1.3.0',
        bbox: [6, 50, 7, 51],
      },
    ]);
    assert.deepEqual(map.frames[2].features, []);
    assert.equal(map.frames[0].content_hash, (await alice.client.get(places.resource_uri)).body.content_hash);
  });

  it('marks frames edited in the map only for callers who may change the switchboard; others cannot see it', async () => {
    const sb = await newSwitchboard(alice.client);
    await addFrame(alice.client, sb, 'feature', [point(7, 51)], { content_visible: true, content_edit: true });
    assertError(await bob.client.get(`${sb.resource_uri}map/`), 404, 'not_found');
    await grant(alice.client, sb, bob, ['read']);
    assert.deepEqual(
      (await mapOf(bob.client, sb)).frames.map((f) => f.edit),
      [false],
    );
    await grant(alice.client, sb, bob, ['read', 'write']);
    assert.deepEqual(
      (await mapOf(bob.client, sb)).frames.map((f) => f.edit),
      [true],
    );
    const anonymous = server.get().t.client();
    assert.equal((await anonymous.get(`${sb.resource_uri}map/`)).status, 401);
  });

  it('a feature drawn in the preview lands in the frame, and a redrawn one keeps its attributes', async () => {
    const sb = await newSwitchboard(alice.client);
    const frame = await addFrame(alice.client, sb, 'feature', [point(7, 51, { name: 'Dortmund' })], {
      content_visible: true,
      content_edit: true,
    });
    // What the viewer sends: a new feature appended, then the first one's geometry replaced.
    expectStatus(await alice.client.post(`/api/v1/datum/create-in-frame/${frame.id}/`, LINE), 201);
    const before = await mapOf(alice.client, sb);
    assert.equal(before.frames[0].total, 2);
    expectStatus(
      await alice.client.patch(`${FRAMES}${frame.id}/content/0/?content_hash=${before.frames[0].content_hash}`, {
        feature: { type: 'Feature', geometry: { type: 'Point', coordinates: [7.5, 51.5] }, properties: { name: 'Dortmund' } },
      }),
      200,
    );
    assert.deepEqual(await contentOf(alice.client, frame), [point(7.5, 51.5, { name: 'Dortmund' }), LINE]);
    // An edit based on the map as it was before is refused, not merged over the newer content.
    assertError(
      await alice.client.delete(`${FRAMES}${frame.id}/content/1/?content_hash=${before.frames[0].content_hash}`),
      409,
      'content_changed',
    );
  });
});

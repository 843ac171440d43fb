import assert from 'node:assert/strict';
import { assertError, expectStatus, startTestServer, type Client, type TestServer } from '@werkbank/testing/node';
import type { ViewImageUpload } from '../src/common/view-image';
import type { View } from '../src/common/view-types';
import { bytesAt, GIF, JPEG, PNG, SVG, uploadImage, WEBP } from './view-image-fixtures';

const VIEWS = '/api/v1/view/';

/** The preview image upload of the view editor's Settings tab (spec 002 §2 "preview image upload through the image drop zone", decision 0092). */
describe('views: preview image upload', function () {
  this.timeout(60_000);
  let t: TestServer;
  let admin: Client;

  before(async () => {
    t = await startTestServer({ plugins: ['types', 'magazine', 'tags', 'layers', 'views', 'events'] });
    admin = await t.admin();
  });
  after(() => t?.close());

  const newView = async (c: Client = admin, fields: Record<string, unknown> = {}) =>
    expectStatus<View>(await c.post(VIEWS, { name: 'Stadtgrün', ...fields }), 201);
  const imageOf = (view: View) => `${view.resource_uri}image/`;

  it('stores the owner’s PNG, sets the view’s image to its address and serves it with its type', async () => {
    const view = await newView();
    const up = expectStatus<ViewImageUpload>(await uploadImage(admin, view.resource_uri, PNG), 200);
    assert.deepEqual(up, { image: imageOf(view), size: PNG.length, mime: 'image/png' });
    const stored = expectStatus<View>(await admin.get(view.resource_uri), 200);
    assert.equal(stored.image, `/api/v1/view/${view.id}/image/`, 'the image field points at the stored image');
    assert.ok(!('image_blob' in stored) && !('image_mime' in stored), 'the blob stays internal');
    const served = await bytesAt(admin, stored.image);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('content-type'), 'image/png');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
    assert.match(served.headers.get('content-disposition') ?? '', new RegExp(`^inline; filename="view-${view.id}\\.png"`));
    assert.ok(served.body.equals(PNG));
    const events = expectStatus<{ objects: Array<{ key: string }> }>(await admin.get(`/api/v1/event/?view_id=${view.id}`), 200);
    assert.deepEqual(
      events.objects.map((e) => e.key),
      ['update', 'create'],
      'the upload is a change of the view',
    );
  });

  it('tells JPEG, WebP and GIF by their content, not by the name or type the client declares', async () => {
    const view = await newView();
    for (const [bytes, mime] of [
      [JPEG, 'image/jpeg'],
      [WEBP, 'image/webp'],
      [GIF, 'image/gif'],
    ] as const) {
      // Declared as an SVG on purpose: only the bytes count.
      const up = await uploadImage(admin, view.resource_uri, bytes, { filename: 'bild.svg', type: 'image/svg+xml' });
      assert.equal(expectStatus<ViewImageUpload>(up, 200).mime, mime);
      const served = await bytesAt(admin, imageOf(view));
      assert.equal(served.headers.get('content-type'), mime);
      assert.ok(served.body.equals(bytes), `${mime} comes back as uploaded`);
      // Saved from the browser, it gets a name with the extension of its type.
      const ext = { 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' }[mime];
      assert.match(served.headers.get('content-disposition') ?? '', new RegExp(`^inline; filename="view-${view.id}\\.${ext}"`));
    }
  });

  it('refuses what is not a PNG, JPEG, WebP or GIF (SVG too) and a file over 5 MB, in the caller’s language', async () => {
    const view = await newView(admin, { image: 'https://example.org/gruen.png' });
    const text = Buffer.from('Stadtgrün: keine Bilddatei\n');
    assertError(await uploadImage(admin, view.resource_uri, text), 400, 'invalid_image', /not a PNG, JPEG, WebP or GIF image/);
    const svg = await uploadImage(admin, view.resource_uri, SVG, { filename: 'bild.png', type: 'image/png' });
    assertError(svg, 400, 'invalid_image', /SVG is not accepted/);
    assert.equal(svg.body.field, 'image');
    const de = await uploadImage(admin, view.resource_uri, SVG, { filename: 'bild.svg', type: 'image/svg+xml', lang: 'de' });
    assertError(de, 400, 'invalid_image', /kein PNG-, JPEG-, WebP- oder GIF-Bild/);
    const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await uploadImage(admin, view.resource_uri, big);
    assertError(tooLarge, 413, 'file_too_large', 'The image is larger than 5 MB. Choose a smaller image or reduce its size.');
    assert.equal(tooLarge.body.field, 'image');
    assertError(await uploadImage(admin, view.resource_uri, big, { lang: 'de' }), 413, 'file_too_large', /größer als 5 MB/);
    assertError(await uploadImage(admin, view.resource_uri, Buffer.alloc(0)), 400, 'empty_file');
    const stored = expectStatus<View>(await admin.get(view.resource_uri), 200);
    assert.equal(stored.image, 'https://example.org/gruen.png', 'a refused file changes nothing');
    assert.equal((await bytesAt(admin, imageOf(view))).status, 404);
  });

  it('lets only writers upload and remove; readers read it (404 without read access, 403 without write access)', async () => {
    const bob = await t.user();
    const view = await newView();
    expectStatus(await uploadImage(admin, view.resource_uri, PNG), 200);
    assertError(await uploadImage(bob.client, view.resource_uri, GIF), 404, 'not_found');
    assertError(await bob.client.delete(imageOf(view)), 404, 'not_found');
    assert.equal((await bytesAt(bob.client, imageOf(view))).status, 404);
    expectStatus(
      await admin.patch(view.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read'] }] }),
      200,
    );
    assert.equal((await bytesAt(bob.client, imageOf(view))).status, 200, 'a reader sees the image');
    assertError(await uploadImage(bob.client, view.resource_uri, GIF), 403, 'permission_denied');
    assertError(await bob.client.delete(imageOf(view)), 403, 'permission_denied');
    assertError(await t.client().post(imageOf(view), {}), 401, 'not_authenticated');
    expectStatus(
      await admin.patch(view.resource_uri, { permissions: [{ user: `/api/v1/user/${bob.id}/`, perms: ['read', 'write'] }] }),
      200,
    );
    expectStatus(await uploadImage(bob.client, view.resource_uri, GIF), 200);
    assert.ok((await bytesAt(admin, imageOf(view))).body.equals(GIF), 'a writer replaces it');
    const own = await newView(bob.client);
    expectStatus(await uploadImage(bob.client, own.resource_uri, PNG), 200);
  });

  it('serves a public view’s image to signed-out visitors, an internal view’s not', async () => {
    const view = await newView();
    expectStatus(await uploadImage(admin, view.resource_uri, JPEG), 200);
    const internal = await bytesAt(t.client(), imageOf(view));
    assert.equal(internal.status, 404, 'as for a view that does not exist');
    assert.doesNotMatch(internal.headers.get('content-type') ?? '', /^image\//);
    const published = expectStatus<View>(await admin.patch(view.resource_uri, { public: true, slug: 'gruen-bild' }), 200);
    assert.equal(published.image, imageOf(view));
    const anonymous = await bytesAt(t.client(), published.image);
    assert.equal(anonymous.status, 200);
    assert.equal(anonymous.headers.get('content-type'), 'image/jpeg');
    assert.equal(anonymous.headers.get('x-content-type-options'), 'nosniff');
    assert.ok(anonymous.body.equals(JPEG));
    const scene = expectStatus(await t.client().get('/api/v2/presenting/view/gruen-bild/scene'), 200);
    assert.equal(scene.image, imageOf(view), 'the viewer and portal pages get the address');
    expectStatus(await admin.patch(view.resource_uri, { public: false }), 200);
    assert.equal((await bytesAt(t.client(), imageOf(view))).status, 404);
    assert.equal((await bytesAt(t.client(), '/api/v1/view/999999/image/')).status, 404);
  });

  it('keeps the image when its address is sent back, lets it go for another address or Remove', async () => {
    const view = await newView();
    assertError(await admin.patch(view.resource_uri, { image: imageOf(view) }), 400, 'invalid_field', /no image was uploaded/);
    expectStatus(await uploadImage(admin, view.resource_uri, PNG), 200);
    const same = expectStatus<View>(await admin.patch(view.resource_uri, { image: imageOf(view), name: 'Umbenannt' }), 200);
    assert.equal(same.image, imageOf(view));
    assert.equal((await bytesAt(admin, imageOf(view))).status, 200);
    const external = expectStatus<View>(await admin.patch(view.resource_uri, { image: 'https://example.org/karte.webp' }), 200);
    assert.equal(external.image, 'https://example.org/karte.webp');
    assert.equal((await bytesAt(admin, imageOf(view))).status, 404, 'an external address replaces the upload');
    expectStatus(await uploadImage(admin, view.resource_uri, PNG), 200);
    expectStatus(await admin.delete(imageOf(view)), 204);
    assert.equal(expectStatus<View>(await admin.get(view.resource_uri), 200).image, '');
    assert.equal((await bytesAt(admin, imageOf(view))).status, 404);
    // Remove on a view without an image changes nothing: no new time of change, no feed entry.
    const bare = await newView();
    const events = async () =>
      expectStatus<{ meta: { total_count: number } }>(await admin.get(`/api/v1/event/?view_id=${bare.id}`), 200).meta.total_count;
    const eventsBefore = await events();
    expectStatus(await admin.delete(imageOf(bare)), 204);
    assert.equal(await events(), eventsBefore);
    assert.equal(expectStatus<View>(await admin.get(bare.resource_uri), 200).modified, bare.modified);
    expectStatus(await admin.patch(view.resource_uri, { image: 'https://example.org/a.png' }), 200);
    expectStatus(await admin.delete(imageOf(view)), 204);
    assert.equal(expectStatus<View>(await admin.get(view.resource_uri), 200).image, '', 'Remove clears an address too');
  });

  it('releases a replaced, dropped or deleted image to the blob sweep and keeps one in use', async () => {
    const db = t.server.db.dataSource;
    const sweep = async () => {
      await db.query(`UPDATE werkbank_blob_candidate SET since = now() - interval '2 hours'`);
      await t.server.blobSweep.sweep();
    };
    const stat = (hash: string) => t.server.blobs.stat(hash);
    const hashOf = async (id: number) =>
      String(
        ((await db.query(`SELECT image_blob FROM views_view WHERE id = $1`, [id])) as { image_blob: string }[])[0].image_blob,
      );
    const view = await newView();
    const other = await newView();
    const first = Buffer.concat([PNG, Buffer.from('eins')]);
    const second = Buffer.concat([PNG, Buffer.from('zwei')]);
    expectStatus(await uploadImage(admin, view.resource_uri, first), 200);
    const h1 = await hashOf(view.id);
    await sweep();
    assert.ok(await stat(h1), 'an image in use is kept');
    expectStatus(await uploadImage(admin, view.resource_uri, second), 200);
    const h2 = await hashOf(view.id);
    expectStatus(await uploadImage(admin, other.resource_uri, second), 200);
    await sweep();
    assert.equal(await stat(h1), undefined, 'the replaced image is swept');
    expectStatus(await admin.patch(view.resource_uri, { image: 'https://example.org/x.png' }), 200);
    await sweep();
    assert.ok(await stat(h2), 'the other view still uses the same bytes');
    expectStatus(await admin.delete(other.resource_uri), 204);
    await sweep();
    assert.equal(await stat(h2), undefined, 'deleting the last view that used it releases it');
  });
});

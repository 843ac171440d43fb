import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expectStatus, zippedShapefile, type TestClient, type TestServer } from '@werkbank/testing/node';
import { browserSuite, expectAccessible } from './browser';
import { newSwitchboard, SWITCHBOARD_PLUGINS, type Obj } from '@werkbank/plugin-switchboards/testing';

interface Datum {
  feature: { type: string; geometry: { type: string; coordinates: number[][][] }; properties: Record<string, unknown> };
}

/**
 * Issue 14's closing condition: a user who reads German builds upload → Shapefile import →
 * reproject → buffer → store on the canvas with mouse and keyboard, runs it, and the buffered
 * features are in the depot. The UI does what the user does; the API only looks.
 */
describe('a German user builds upload → import → reproject → buffer → store on the canvas', function () {
  this.timeout(240_000);
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  const dir = mkdtempSync(join(tmpdir(), 'werkbank-geoflow-'));
  // 400 polygons of 160 vertices in EPSG:25832, written by ogr2ogr and zipped (about 1 MB).
  const archive = zippedShapefile(dir);

  browserSuite(
    {
      server: { plugins: [...SWITCHBOARD_PLUGINS, 'geodata'] },
      admin: true,
      viewport: { width: 1600, height: 1000 },
      setUp: async (server) => {
        const a = await server.admin();
        expectStatus(await a.patch('/api/v2/backend/profile', { language: 'de' }), 200);
      },
    },
    (s) => ({ t, page, admin } = s),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  const area = () => page.locator('[data-testid=canvas-area]');
  const nodes = () => page.locator('[data-testid=canvas-node]');
  const frames = () => page.locator('[data-testid=canvas-frame]');
  const inSocket = (node: Locator, key: string) =>
    node.locator(`[data-testid=port-in][data-key="${key}"] [data-testid=input-socket]`);
  const outSocket = (node: Locator, key: string) =>
    node.locator(`[data-testid=port-out][data-key="${key}"] [data-testid=output-socket]`);

  /** Drags with the mouse from one socket to a socket, or to a point of the canvas area. */
  const drag = async (from: Locator, to: Locator | { x: number; y: number }) => {
    const a = (await from.boundingBox())!;
    let target: { x: number; y: number };
    if ('boundingBox' in to) {
      const b = (await to.boundingBox())!;
      target = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    } else {
      const c = (await area().boundingBox())!;
      target = { x: c.x + to.x, y: c.y + to.y };
    }
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move((a.x + target.x) / 2, (a.y + target.y) / 2, { steps: 5 });
    await page.mouse.move(target.x, target.y, { steps: 5 });
    await page.mouse.up();
  };

  /** Right-click on empty canvas at `at` (canvas-area pixels) and choose an entry of the menu. */
  const menuAt = async (at: { x: number; y: number }, entry: string) => {
    await area().click({ button: 'right', position: at });
    await page.getByTestId('canvas-menu').getByText(entry).click();
    await page.getByTestId('insert-dialog').waitFor();
  };

  /** Adds a function at `at` by searching its German title in the function browser; the new node. */
  const addFunction = async (at: { x: number; y: number }, title: string) => {
    const before = await nodes().count();
    await menuAt(at, 'Funktion hinzufügen');
    await page.getByTestId('function-search').fill(title);
    const first = page.locator('[data-testid=function-item]').first();
    await first.getByText(title, { exact: true }).waitFor();
    await page.getByTestId('function-search').press('Enter');
    await page.getByTestId('insert-dialog').waitFor({ state: 'detached' });
    await nodes().nth(before).waitFor();
    return nodes().nth(before);
  };

  /** Draws a link from a node's output over empty canvas and takes the offered new frame. */
  const newFrameFrom = async (node: Locator, key: string, at: { x: number; y: number }) => {
    const before = await frames().count();
    await drag(outSocket(node, key), at);
    await page.getByTestId('drop-new-frame').click();
    await frames().nth(before).waitFor();
    return frames().nth(before);
  };

  /** Sets an unlinked input's value in the node's dialog (issue 14 item 13). */
  const setValue = async (node: Locator, port: string, value: string) => {
    await node.locator('.wb-node-title').dblclick();
    await page.getByTestId('node-info-dialog').waitFor();
    await page.locator(`[data-testid=node-ports] [data-port=${port}] [data-testid=port-value-edit]`).click();
    // The number editor puts its test id on the input or on its wrapper (Blueprint's NumericInput).
    await page.locator('input[data-testid=datum-editor-number], [data-testid=datum-editor-number] input').first().fill(value);
    await page.getByTestId('port-value-save').click();
    await page.getByTestId('port-value-editor').waitFor({ state: 'detached' });
    await page.locator('.bp6-dialog-footer').getByRole('button', { name: 'Schließen' }).click();
    await page.getByTestId('node-info-dialog').waitFor({ state: 'detached' });
  };

  it('stores the buffered features of an uploaded zipped Shapefile in EPSG:25832 as degrees in a new depot', async () => {
    // The user makes a feature depot in the Magazine.
    await page.goto(`${t.url}/depots/`);
    await page.getByTestId('new-depot').click();
    await page.fill('#depot-name', 'Gebiete gepuffert');
    await page.selectOption('#depot-type', 'feature');
    await page.getByTestId('depot-save').click();
    await page.getByText('Gebiete gepuffert').first().waitFor();

    const sb = await newSwitchboard(admin, { name: 'Gebiete puffern' });
    await page.goto(`${t.url}/switchboard/${sb.id}`);
    await page.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();

    // Upload the archive into a new file frame.
    await menuAt({ x: 20, y: 30 }, 'Daten hinzufügen');
    await page.getByRole('tab', { name: 'Hochladen' }).click();
    await page.getByTestId('upload-input').setInputFiles({
      name: 'gebiete-shp.zip',
      mimeType: 'application/zip',
      buffer: readFileSync(archive),
    });
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/upload/') && r.request().method() === 'POST');
    await page.getByTestId('upload-insert').click();
    assert.equal((await uploaded).status(), 201);
    const file = frames().first();
    await file.waitFor();

    // Import → features → reproject → features → buffer → features → store into the depot.
    const shp = await addFunction({ x: 300, y: 30 }, 'Shapefile importieren');
    await drag(file.getByTestId('output-socket'), inSocket(shp, 'file'));
    await page.locator('[data-testid=canvas-link]').first().waitFor();
    const imported = await newFrameFrom(shp, 'features', { x: 600, y: 50 });

    const reproject = await addFunction({ x: 20, y: 330 }, 'Umprojizieren');
    await drag(imported.getByTestId('output-socket'), inSocket(reproject, 'features'));
    const inDegrees = await newFrameFrom(reproject, 'features', { x: 320, y: 350 });

    const buffer = await addFunction({ x: 600, y: 330 }, 'Puffer');
    await drag(inDegrees.getByTestId('output-socket'), inSocket(buffer, 'features'));
    await setValue(buffer, 'distance', '100');
    const buffered = await newFrameFrom(buffer, 'features', { x: 20, y: 650 });

    await menuAt({ x: 300, y: 650 }, 'Daten hinzufügen');
    await page.getByTestId('depot-search').fill('Gebiete');
    await page.getByTestId('depot-option').getByText('Gebiete gepuffert').click();
    await page.getByTestId('depot-insert').click();
    const depotFrame = frames().filter({ hasText: 'Gebiete gepuffert' });
    await depotFrame.waitFor();

    const store = await addFunction({ x: 600, y: 630 }, 'In Depot speichern');
    await drag(buffered.getByTestId('output-socket'), inSocket(store, 'datums'));
    await drag(depotFrame.getByTestId('output-socket'), inSocket(store, 'depot'));
    await page.locator('[data-testid=canvas-link]').nth(7).waitFor();

    // Nodes that never ran are not "veraltet" and show no progress yet.
    assert.equal(await page.getByTestId('node-outdated').count(), 0);
    assert.equal(await page.locator('[data-testid=canvas-node] [role=progressbar]').count(), 0);
    await expectAccessible(page);

    // Run after the confirmation; every node succeeds.
    await area().click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Ausführen' }).click();
    await page
      .getByTestId('switchboard-status')
      .getByText(/Erfolgreich ausgeführt|Fehlgeschlagen/)
      .waitFor({ timeout: 180_000 });
    const failed = await page.locator('[data-testid=canvas-node][data-status=failure]').count();
    assert.equal(failed, 0, `failed nodes: ${JSON.stringify((await admin.get(`${sb.resource_uri}reload/`)).body)}`);
    assert.equal(await page.locator('[data-testid=canvas-node][data-status=success]').count(), 4);

    // The API looks: 400 buffered polygons in the depot, in degrees inside Germany.
    const depots = expectStatus<{ objects: Obj[] }>(await admin.get('/api/v1/depot/?q=Gebiete'), 200).objects;
    const depot = depots.find((d) => d.name === 'Gebiete gepuffert')!;
    // Without a moment: the depot's newest one, the one depot.store wrote.
    const datums = expectStatus<{ objects: Datum[] }>(
      await admin.get(`/api/v1/datum/by-depot/${depot.id}/?limit=1000`),
      200,
    ).objects;
    assert.equal(datums.length, 400);
    for (const d of datums) {
      assert.equal(d.feature.geometry.type, 'Polygon');
      for (const [lon, lat] of d.feature.geometry.coordinates[0]) {
        assert.ok(lon > 5.5 && lon < 15.5 && lat > 47 && lat < 55.5, `${String(d.feature.properties.name)}: ${lon} ${lat}`);
      }
    }
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestServer, TestClient } from '@werkbank/testing/node';
import { browserSuite, login } from './browser';
import {
  addFrame,
  addNode,
  contentOf,
  get,
  list,
  newSwitchboard,
  SWITCHBOARD_PLUGINS,
  type Obj,
} from '@werkbank/plugin-switchboards/testing';

/** The switchboard canvas in a browser (issue 5): building, running, live edits, undo. */
describe('the switchboard canvas in a browser', function () {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let admin: TestClient;
  const dataDir = mkdtempSync(join(tmpdir(), 'werkbank-canvas-'));

  browserSuite(
    {
      // On disk, so the server can stop and come back with its data (the connection test).
      server: { plugins: SWITCHBOARD_PLUGINS, config: { dataDir } },
      admin: true,
      viewport: { width: 1600, height: 1000 },
    },
    (s) => ({ t, browser, page, admin } = s),
  );
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const open = async (p: Page, sb: Obj) => {
    await p.goto(`${t.url}/switchboard/${sb.id}`);
    await p.locator('[data-testid=switchboard-canvas][data-loaded=yes]').waitFor();
  };
  const nodeOf = (p: Page, uri: string) => p.locator(`[data-testid=canvas-node][data-uri="${uri}"]`);
  const frameOf = (p: Page, uri: string) => p.locator(`[data-testid=canvas-frame][data-uri="${uri}"]`);
  const inSocket = (node: Locator, key: string) =>
    node.locator(`[data-testid=port-in][data-key="${key}"] [data-testid=input-socket]`);
  const outSocket = (node: Locator, key: string) =>
    node.locator(`[data-testid=port-out][data-key="${key}"] [data-testid=output-socket]`);
  /** Drags with the mouse from one socket to another, as a person does. */
  const drag = async (p: Page, from: Locator, to: Locator) => {
    const a = (await from.boundingBox())!;
    const b = (await to.boundingBox())!;
    await p.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await p.mouse.down();
    await p.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
    await p.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
    await p.mouse.up();
  };
  const links = async (sb: Obj) => (await list(admin, `/api/v1/link/?switchboard_id=${sb.id}`)) as Obj[];
  const expectLink = (res: { status: number; body: unknown }) => {
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as Obj;
  };
  const canvasObjects = async (sb: Obj) => (await get(admin, `${sb.resource_uri}reload/`)) as unknown as Record<string, Obj[]>;

  it('builds a switchboard with keyboard and mouse and runs it: f, d, connect, r and confirm, statuses', async () => {
    const sb = await newSwitchboard(admin, { name: 'Aufbau' });
    await open(page, sb);

    // d: insert data — an empty string frame, named.
    await page.keyboard.press('d');
    await page.getByTestId('insert-dialog').waitFor();
    await page.getByRole('tab', { name: /empty/i }).click();
    await page.getByTestId('empty-type').selectOption('string');
    await page.getByTestId('empty-name').fill('Eingabe');
    await page.getByTestId('empty-name').press('Enter');
    await page.locator('[data-testid=canvas-frame]').getByText('Eingabe').waitFor();

    // f: insert a function through the function browser.
    await page.keyboard.press('f');
    await page.getByTestId('function-search').fill('string.upper');
    await page.locator('[data-testid=function-item]').first().waitFor();
    await page.getByTestId('function-search').press('Enter');
    await page.locator('[data-testid=canvas-node]').waitFor();

    await page.keyboard.press('d');
    await page.getByRole('tab', { name: /empty/i }).click();
    await page.getByTestId('empty-type').selectOption('string');
    await page.getByTestId('empty-name').fill('Ergebnis');
    await page.getByTestId('empty-insert').click();
    await page.locator('[data-testid=canvas-frame]').getByText('Ergebnis').waitFor();

    const objs = await canvasObjects(sb);
    const input = objs.frames.find((f) => f.name === 'Eingabe')!;
    const output = objs.frames.find((f) => f.name === 'Ergebnis')!;
    const node = objs.nodes[0];
    await admin.patch(input.resource_uri, { content: [{ value: 'hallo welt' }] });
    await frameOf(page, input.resource_uri).getByText('hallo welt').waitFor();

    // Connect with the mouse: frame → port, port → frame.
    await drag(
      page,
      frameOf(page, input.resource_uri).getByTestId('output-socket'),
      inSocket(nodeOf(page, node.resource_uri), 'value'),
    );
    await page.locator('[data-testid=canvas-link]').first().waitFor();
    await drag(
      page,
      outSocket(nodeOf(page, node.resource_uri), 'result'),
      frameOf(page, output.resource_uri).getByTestId('input-socket'),
    );
    await page.locator('[data-testid=canvas-link]').nth(1).waitFor();
    assert.equal((await links(sb)).length, 2);

    // r: run after a confirmation; the node goes to success and the result shows in the frame.
    await page.locator('[data-testid=canvas-area]').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Run' }).click();
    await page.locator(`[data-testid=canvas-node][data-status=success]`).waitFor();
    await frameOf(page, output.resource_uri).getByText('HALLO WELT').waitFor();
    await page.getByTestId('switchboard-status').getByText('Executed successfully').waitFor();
    assert.deepEqual(await contentOf(admin, output), [{ value: 'HALLO WELT' }]);
  });

  it('shows a notification for a connection of the wrong type and creates nothing', async () => {
    const sb = await newSwitchboard(admin, { name: 'Falscher Typ' });
    const numbers = await addFrame(admin, sb, 'int', [{ value: 3 }], { ui_x: 0, ui_y: 0 });
    const node = await addNode(admin, sb, 'string.upper');
    await admin.patch(node.resource_uri, { ui_x: 400, ui_y: 0 });
    await open(page, sb);
    await drag(
      page,
      frameOf(page, numbers.resource_uri).getByTestId('output-socket'),
      inSocket(nodeOf(page, node.resource_uri), 'value'),
    );
    await page.getByText(/Wrong input type: int cannot be connected to string/).waitFor();
    assert.equal((await links(sb)).length, 0);
    assert.equal(await page.locator('[data-testid=canvas-link]').count(), 0);
  });

  it('keeps the valid link of an input when a connection of the wrong type onto it is refused (issue 14 item 10)', async () => {
    const sb = await newSwitchboard(admin, { name: 'Bleibt verbunden' });
    const texts = await addFrame(admin, sb, 'string', [{ value: 'a' }], { ui_x: 0, ui_y: 0 });
    const numbers = await addFrame(admin, sb, 'int', [{ value: 3 }], { ui_x: 0, ui_y: 260 });
    const node = await addNode(admin, sb, 'string.upper');
    await admin.patch(node.resource_uri, { ui_x: 400, ui_y: 0 });
    const valid = expectLink(
      await admin.post('/api/v1/link/', { node: node.resource_uri, frame: texts.resource_uri, name: 'value', is_input: true }),
    );
    await open(page, sb);
    await page.locator('[data-testid=canvas-link]').waitFor();
    await drag(
      page,
      frameOf(page, numbers.resource_uri).getByTestId('output-socket'),
      inSocket(nodeOf(page, node.resource_uri), 'value'),
    );
    await page.getByText(/Wrong input type: int cannot be connected to string/).waitFor();
    assert.deepEqual(
      (await links(sb)).map((l) => l.id),
      [valid.id],
    );
    await page.locator('[data-testid=canvas-link]').waitFor();
    assert.equal(await page.locator('[data-testid=canvas-link]').count(), 1);
  });

  it('connects a generic (any) output to a typed frame, as the server allows (one link rule)', async () => {
    const sb = await newSwitchboard(admin, { name: 'Generisch' });
    const out = await addFrame(admin, sb, 'string', [], { ui_x: 500, ui_y: 0 });
    const merge = await addNode(admin, sb, 'frame.merge');
    await open(page, sb);
    await drag(
      page,
      outSocket(nodeOf(page, merge.resource_uri), 'frame'),
      frameOf(page, out.resource_uri).getByTestId('input-socket'),
    );
    await page.locator('[data-testid=canvas-link]').waitFor();
    const [made] = await links(sb);
    assert.equal(made.frame, out.resource_uri);
    assert.equal(made.is_input, false);
  });

  it('offers a frame of the port’s type when a link is let go over empty canvas; a link’s menu still offers Add Function', async () => {
    const sb = await newSwitchboard(admin, { name: 'Loslassen' });
    const node = await addNode(admin, sb, 'string.length');
    await open(page, sb);
    const socket = outSocket(nodeOf(page, node.resource_uri), 'result');
    const a = (await socket.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(a.x + 200, a.y + 150, { steps: 5 });
    await page.mouse.move(a.x + 300, a.y + 200, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('drop-new-frame').getByText('New int frame for this output').click();
    await page.locator('[data-testid=canvas-link]').waitFor();
    const objs = await canvasObjects(sb);
    assert.equal(objs.frames.length, 1);
    assert.equal(objs.frames[0].type_name, 'int');
    const [made] = await links(sb);
    assert.deepEqual(
      [made.node, made.frame, made.name, made.is_input],
      [node.resource_uri, objs.frames[0].resource_uri, 'result', false],
    );

    // The link's context menu: Add Function, Intermediate function, Disconnect.
    const path = page.locator('[data-testid=canvas-link] path').first();
    const box = (await path.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, { button: 'right' });
    const menu = page.getByTestId('link-menu');
    await menu.getByText('Add Function').waitFor();
    await menu.getByText('Intermediate function').waitFor();
    await menu.getByText('Disconnect').waitFor();
  });

  it('edits an unlinked input’s value in the node’s dialog and shows it on the node; a run uses it (issue 14 item 13)', async () => {
    const sb = await newSwitchboard(admin, { name: 'Werte' });
    const out = await addFrame(admin, sb, 'string', [], { ui_x: 500, ui_y: 0 });
    const node = await addNode(admin, sb, 'string.upper');
    await admin.post('/api/v1/link/', { node: node.resource_uri, frame: out.resource_uri, name: 'result', is_input: false });
    await open(page, sb);
    await nodeOf(page, node.resource_uri).locator('.wb-node-title').dblclick();
    await page.getByTestId('node-info-dialog').waitFor();
    await page.locator('[data-testid=node-ports] [data-port=value] [data-testid=port-value-edit]').click();
    await page.getByTestId('datum-editor-string').fill('hallo');
    await page.getByTestId('port-value-save').click();
    await page.getByTestId('port-value-editor').waitFor({ state: 'detached' });
    await page.locator('.bp6-dialog-footer').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('node-info-dialog').waitFor({ state: 'detached' });
    await nodeOf(page, node.resource_uri).getByTestId('port-value').getByText('hallo').waitFor();
    await page.locator('[data-testid=canvas-area]').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('r');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Run' }).click();
    await frameOf(page, out.resource_uri).getByText('HALLO').waitFor();
  });

  it('shows a colleague’s edits live in a second browser, with who is here and what they selected', async () => {
    const sb = await newSwitchboard(admin, { name: 'Gemeinsam' });
    const frame = await addFrame(admin, sb, 'string', [{ value: 'a' }], { ui_x: 0, ui_y: 0 });
    await open(page, sb);
    const other = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    try {
      const colleague = await other.newPage();
      await login(colleague, t.url, 'admin', t.adminPassword);
      await open(colleague, sb);
      await page.getByTestId('presence').waitFor();

      // The colleague selects the frame: the first browser marks it with their name.
      await frameOf(colleague, frame.resource_uri).click();
      await frameOf(page, frame.resource_uri).getByTestId('presence-mark').waitFor();

      // The first browser inserts a node; the colleague sees it without reloading.
      await page.keyboard.press('f');
      await page.getByTestId('function-search').fill('string.lower');
      await page.locator('[data-testid=function-item]').first().waitFor();
      await page.getByTestId('function-search').press('Enter');
      await colleague.locator('[data-testid=canvas-node]').waitFor();

      // And the colleague's change of the frame's content reaches the first browser.
      await admin.patch(frame.resource_uri, { content: [{ value: 'neu' }] });
      await frameOf(page, frame.resource_uri).getByText('neu').waitFor();
      await colleague.close();
      await page.getByTestId('presence').waitFor({ state: 'detached' });
    } finally {
      await other.close();
    }
  });

  it('says the connection is interrupted while the server is down, and clears the message when it is back', async () => {
    const sb = await newSwitchboard(admin, { name: 'Verbindung' });
    await open(page, sb);
    assert.equal(await page.getByTestId('connection-lost').count(), 0);
    await t.restart(async () => {
      await page.getByTestId('connection-lost').getByText('The connection to the switchboard is interrupted').waitFor();
    });
    await page.getByTestId('connection-lost').waitFor({ state: 'detached', timeout: 40_000 });
    // The canvas works again: an edit made now arrives live.
    const again = await t.admin();
    await addFrame(again, sb, 'string', [{ value: 'zurück' }]);
    await page.locator('[data-testid=canvas-frame]').getByText('zurück').waitFor();
    admin = again;
  });

  it('undoes and redoes an insert, a move and a link (Ctrl+Z, Ctrl+Shift+Z)', async () => {
    const sb = await newSwitchboard(admin, { name: 'Rückgängig' });
    const frame = await addFrame(admin, sb, 'string', [{ value: 'x' }], { ui_x: 0, ui_y: 0 });
    await open(page, sb);

    // Insert, undo, redo.
    await page.keyboard.press('f');
    await page.getByTestId('function-search').fill('string.upper');
    await page.locator('[data-testid=function-item]').first().waitFor();
    await page.getByTestId('function-search').press('Enter');
    await page.locator('[data-testid=canvas-node]').waitFor();
    await page.keyboard.press('Control+z');
    await page.locator('[data-testid=canvas-node]').waitFor({ state: 'detached' });
    assert.equal((await canvasObjects(sb)).nodes.length, 0);
    await page.keyboard.press('Control+Shift+z');
    await page.locator('[data-testid=canvas-node]').waitFor();
    const node = (await canvasObjects(sb)).nodes[0];
    const where = { x: node.ui_x as number, y: node.ui_y as number };

    // Move by dragging the title, undo, redo: each sends the position (a PATCH of the node).
    const patched = () =>
      page.waitForResponse((r) => r.url().endsWith(node.resource_uri) && r.request().method() === 'PATCH' && r.ok());
    const position = async () => {
      const n = (await get(admin, node.resource_uri)) as unknown as { ui_x: number; ui_y: number };
      return { x: n.ui_x, y: n.ui_y };
    };
    const title = nodeOf(page, node.resource_uri).locator('.wb-node-title');
    const box = (await title.boundingBox())!;
    let saved = patched();
    await page.mouse.move(box.x + 20, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 120, box.y + 160, { steps: 8 });
    await page.mouse.up();
    await saved;
    const after = await position();
    assert.notDeepEqual(after, where);
    saved = patched();
    await page.keyboard.press('Control+z');
    await saved;
    assert.deepEqual(await position(), where);
    saved = patched();
    await page.keyboard.press('Control+Shift+z');
    await saved;
    assert.deepEqual(await position(), after);

    // Link, undo, redo.
    await drag(
      page,
      frameOf(page, frame.resource_uri).getByTestId('output-socket'),
      inSocket(nodeOf(page, node.resource_uri), 'value'),
    );
    await page.locator('[data-testid=canvas-link]').waitFor();
    await page.keyboard.press('Control+z');
    await page.locator('[data-testid=canvas-link]').waitFor({ state: 'detached' });
    assert.equal((await links(sb)).length, 0);
    await page.keyboard.press('Control+Shift+z');
    await page.locator('[data-testid=canvas-link]').waitFor();
    assert.equal((await links(sb)).length, 1);
  });
});

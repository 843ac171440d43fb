import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import type { TestServer, TestClient } from '@werkbank/testing/node';
import { browserSuite, expectAccessible, login } from './browser';
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

  it('draws a big switchboard zoomed out as boxes with sockets, and the full views when zoomed in, links at their sockets', async () => {
    // A chain frame → node → frame … wide enough that zoom-to-fit is below 1/3 (the level of detail).
    const n = 30;
    const at = (i: number) => ({ ui_x: (i % 10) * 520, ui_y: Math.floor(i / 10) * 200 });
    const file = {
      format: 'werkbank-switchboard',
      version: 1,
      switchboard: { name: 'Weit' },
      nodes: Array.from({ length: n }, (_, i) => ({ ref: i + 1, func: 'string.upper', ...at(i), ui_x: at(i).ui_x + 260 })),
      frames: Array.from({ length: n + 1 }, (_, i) => ({
        ref: i + 1,
        content_type: 'string',
        name: `f${i}`,
        items: [],
        ...at(i),
        ui_y: at(i).ui_y + 100,
      })),
      links: Array.from({ length: n }, (_, i) => [
        { node: i + 1, frame: i + 1, name: 'value', is_input: true },
        { node: i + 1, frame: i + 2, name: 'result', is_input: false },
      ]).flat(),
      notes: [],
    };
    const res = await admin.post('/api/v1/switchboard/import/', file);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const sb = res.body as Obj;
    await open(page, sb);
    const far = page.locator('.wb-item-far');
    const canvasLinks = page.locator('[data-testid=canvas-link]');
    await page.waitForFunction((count) => document.querySelectorAll('.wb-item-far').length === count, 2 * n + 1);
    assert.equal(await page.locator('[data-testid=canvas-node]').count(), n);
    assert.equal(await page.locator('.wb-node-name').count(), 0, 'no texts drawn far out');
    await page.waitForFunction(
      (count) => document.querySelectorAll('[data-testid=canvas-link] .wb-link-path[d]').length === count,
      2 * n,
    );
    const { nodes } = await canvasObjects(sb);
    const first = nodes.find((x) => x.ui_x === 260 && x.ui_y === 0)!;
    const input = (await links(sb)).find((l) => l.node === first.resource_uri && l.is_input)!;
    /**
     * In the page: how far the end of a link lies from the centre of the input socket it goes to, in
     * px (the curve ends 12 canvas units before it, as Rete's classic links do), and the zoom; with
     * `near`, only whether that is less than 2 px (for waitForFunction).
     */
    const endGap = ({ link, node, near }: { link: string; node: string; near?: boolean }) => {
      const path = document.querySelector(`[data-testid=canvas-link][data-uri="${link}"] .wb-link-path`) as SVGPathElement;
      const socket = document
        .querySelector(
          `[data-testid=canvas-node][data-uri="${node}"] [data-testid=port-in][data-key=value] [data-testid=input-socket]`,
        )!
        .getBoundingClientRect();
      const p = path.getPointAtLength(path.getTotalLength());
      const m = path.getScreenCTM()!;
      const end = { x: p.x * m.a + p.y * m.c + m.e + 12 * m.a, y: p.x * m.b + p.y * m.d + m.f };
      const gap = Math.hypot(socket.x + socket.width / 2 - end.x, socket.y + socket.height / 2 - end.y);
      return near ? gap < 2 : { gap, k: m.a };
    };
    const ends = { link: input.resource_uri as string, node: first.resource_uri as string };
    const before = (await page.evaluate(endGap, ends)) as { gap: number; k: number };
    assert.ok(before.k < 1 / 3, `zoomed to fit below 1/3 (${before.k})`);
    assert.ok(before.gap < 2, `far out, the link ends at its socket (${before.gap.toFixed(1)} px off)`);
    await expectAccessible(page);

    // Zoomed in on the first node (Rete zooms by 1.1 per wheel step): the full views, and the link
    // follows its socket to where the full view puts it.
    const socket = (await inSocket(nodeOf(page, first.resource_uri), 'value').boundingBox())!;
    await page.mouse.move(socket.x + socket.width / 2, socket.y + socket.height / 2);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, -100);
    await far.first().waitFor({ state: 'detached' });
    await nodeOf(page, first.resource_uri).locator('.wb-node-name').waitFor();
    assert.equal(await canvasLinks.count(), 2 * n);
    await page.waitForFunction(endGap, { ...ends, near: true });
    const after = (await page.evaluate(endGap, ends)) as { gap: number; k: number };
    assert.ok(after.k >= 1 / 3, `zoomed in to 1/3 or more (${after.k})`);
    assert.ok(after.gap < 2, `zoomed in, the link ends at its socket again (${after.gap.toFixed(1)} px off)`);
    await expectAccessible(page);
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
    // The title bar's buttons say when a step has finished (a redone node shows before its inputs
    // are restored; an edit made meanwhile is still undone first, see the undo stack's unit spec).
    const canUndo = () => page.locator('[data-testid=undo]:not([disabled])').waitFor();
    const canRedo = () => page.locator('[data-testid=redo]:not([disabled])').waitFor();
    await canUndo();
    await page.keyboard.press('Control+z');
    await page.locator('[data-testid=canvas-node]').waitFor({ state: 'detached' });
    await canRedo();
    assert.equal((await canvasObjects(sb)).nodes.length, 0);
    await page.keyboard.press('Control+Shift+z');
    await page.locator('[data-testid=canvas-node]').waitFor();
    await canUndo();
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
    await canRedo();
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

import { byTestId, failure, text, typeInto, type BootedWorkbench } from '../../switchboards-test-kit';
import assert from 'node:assert/strict';
import { CONTENT, contentOf, frameRoutes, openFrameDialog, rows } from '../frame-dialog-test-kit';
import type { FrameItem } from '../frame-kind';

/** The names of the columns the table shows (Blueprint renders only those in view, so the table names them). */
const headers = () => (byTestId('frame-table')?.getAttribute('data-columns') ?? '').split('|').filter(Boolean);

/** The innermost element of a body cell showing `value`. */
function cellShowing(value: string): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="frame-table"] .bp6-table-cell div')].find(
    (e) => e.textContent === value && !e.querySelector('div'),
  );
}

/** Double-clicks the cell showing `value` (Blueprint's drag events), types `next` and presses Enter. */
async function editCell(booted: BootedWorkbench, value: string, next: string): Promise<void> {
  const target = cellShowing(value);
  assert.ok(target, `a cell shows '${value}'`);
  for (let i = 0; i < 2; i++) {
    target.dispatchEvent(new window.MouseEvent('mousedown', { bubbles: true, clientX: 1, clientY: 1 }));
    document.dispatchEvent(new window.MouseEvent('mouseup', { bubbles: true, clientX: 1, clientY: 1 }));
  }
  const input = () => document.querySelector<HTMLInputElement>('[data-testid="frame-table"] .bp6-editable-text-input');
  await booted.waitFor(() => !!input());
  typeInto(input()!, next);
  input()!.dispatchEvent(new window.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
  await booted.waitFor(() => !input());
}

const wide = (columns: number, n = 3): FrameItem[] =>
  rows(n, (r) => ({ value: Object.fromEntries(Array.from({ length: columns }, (_, c) => [`col${c}`, `r${r}c${c}`])) }));

const patches = (booted: BootedWorkbench) => booted.api.calls.filter((c) => c.method === 'PATCH');

describe('frame dialog: table view (spec 001 §2.7, §5.3, §9)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => {
    await booted?.workbench.i18n.setLanguage('en', { persist: false });
    await booted?.unmount();
  });

  it('shows the first 8 columns, a badge with the hidden ones, and a column filter box above 8 columns', async () => {
    booted = await openFrameDialog(frameRoutes('row', wide(12)));
    await booted.waitFor(() => headers().length > 0);
    assert.deepEqual(headers(), ['col0', 'col1', 'col2', 'col3', 'col4', 'col5', 'col6', 'col7']);
    assert.equal(byTestId('frame-hidden-badge')!.textContent, '4');
    const rendered = [...document.querySelectorAll('[data-testid="frame-table"] .bp6-table-column-name-text')];
    assert.ok(
      rendered.some((h) => h.textContent === 'col0'),
      'the headers show the names',
    );
    const filter = byTestId<HTMLInputElement>('frame-column-filter')!;
    typeInto(filter, 'col1');
    await booted.waitFor(() => headers().join() === 'col1,col10,col11');
    assert.equal(byTestId('frame-hidden-badge')!.textContent, '9');
    await booted.unmount();

    booted = await openFrameDialog(frameRoutes('row', wide(8)));
    await booted.waitFor(() => headers().length === 8);
    assert.equal(byTestId('frame-column-filter'), null, 'no filter box for 8 columns');
    assert.equal(byTestId('frame-hidden-badge'), null);
  });

  it('caps the hidden-column badge at 99+, and the column chooser shows a column', async () => {
    booted = await openFrameDialog(frameRoutes('row', wide(120, 2)));
    await booted.waitFor(() => headers().length === 8);
    assert.equal(byTestId('frame-hidden-badge')!.textContent, '99+');
    byTestId('frame-column-chooser')!.click();
    await booted.waitFor(() => !!byTestId('frame-column-list'));
    const box = [...document.querySelectorAll<HTMLLabelElement>('[data-testid="frame-column-list"] label')].find(
      (l) => l.textContent === 'col100',
    )!;
    box.querySelector('input')!.click();
    await booted.waitFor(() => headers().includes('col100'));
    assert.equal(headers().length, 9);
  });

  it('sends an edit as the row’s new fields with the content hash it is based on', async () => {
    const routes = frameRoutes('row', [{ value: { river: 'Elbe', km: 1094 } }, { value: { river: 'Rhein', km: 1233 } }]);
    routes[`PATCH ${CONTENT}1/`] = (call: { body: FrameItem }) => ({
      item: { ...call.body, index: 1 },
      frame: { size: 2, content_hash: 'b'.repeat(64) },
    });
    booted = await openFrameDialog(routes);
    await booted.waitFor(() => !!cellShowing('Rhein'));
    await editCell(booted, 'Rhein', 'Rhine');
    await booted.waitFor(() => patches(booted!).length === 1);
    assert.deepEqual(patches(booted)[0].body, { value: { river: 'Rhine', km: 1233 } });
    assert.deepEqual(patches(booted)[0].query, { content_hash: 'a'.repeat(64) });
    await editCell(booted, '1233', '1233,5');
    await booted.waitFor(() => patches(booted!).length === 2);
    assert.deepEqual(patches(booted)[1].body, { value: { river: 'Rhine', km: 1233.5 } }, 'a German decimal comma is read');
    assert.deepEqual(patches(booted)[1].query, { content_hash: 'b'.repeat(64) }, 'based on the content the last edit made');
  });

  it('reverts the cell and says ‘Fehler beim Speichern’ when the server refuses an edit', async () => {
    const routes = frameRoutes(
      'string',
      rows(2, (i) => ({ value: `river ${i}` })),
    );
    routes[`PATCH ${CONTENT}0/`] = failure(409, 'Die Daten des Frames haben sich inzwischen geändert.');
    booted = await openFrameDialog(routes);
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!cellShowing('river 0'));
    await editCell(booted, 'river 0', 'Oder');
    await booted.waitFor(() => text().includes('Fehler beim Speichern'));
    assert.ok(text().includes('Die Daten des Frames haben sich inzwischen geändert.'));
    await booted.waitFor(() => !!cellShowing('river 0') && !cellShowing('Oder'));
  });

  it('puts the stored value back when the server refuses an edit without a reload (403: no right to edit)', async () => {
    const routes = frameRoutes(
      'string',
      rows(2, (i) => ({ value: `river ${i}` })),
    );
    routes[`PATCH ${CONTENT}1/`] = failure(403, 'Sie haben keine Berechtigung dafür.');
    booted = await openFrameDialog(routes);
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => !!cellShowing('river 1'));
    await editCell(booted, 'river 1', 'Oder');
    await booted.waitFor(() => text().includes('Fehler beim Speichern: Sie haben keine Berechtigung dafür.'));
    await booted.waitFor(() => !!cellShowing('river 1') && !cellShowing('Oder'));
    assert.equal(booted.api.calls.filter((c) => c.method === 'GET' && c.path === CONTENT).length, 1, 'not reloaded');
  });

  it('takes 1, true and True as true in bool cells and anything else as false', async () => {
    const routes = frameRoutes(
      'bool',
      rows(3, () => ({ value: false })),
    );
    for (const i of [0, 1, 2]) routes[`PATCH ${CONTENT}${i}/`] = { item: {}, frame: { size: 3, content_hash: 'a'.repeat(64) } };
    booted = await openFrameDialog(routes);
    await booted.waitFor(() => !!cellShowing('false'));
    for (const typed of ['1', 'True', 'true']) {
      await editCell(booted, 'false', typed);
    }
    await booted.waitFor(() => patches(booted!).length === 3);
    assert.deepEqual(
      patches(booted).map((c) => c.body),
      [{ value: true }, { value: true }, { value: true }],
    );
    await editCell(booted, 'true', 'yes');
    await booted.waitFor(() => patches(booted!).length === 4);
    assert.deepEqual(patches(booted)[3].body, { value: false });
  });

  it('rejects colours the browser does not accept and datetimes it cannot read, without sending them', async () => {
    const routes = frameRoutes('color', [{ hex: '#000000' }]);
    routes[`PATCH ${CONTENT}0/`] = (call: { body: FrameItem }) => ({
      item: call.body,
      frame: { size: 1, content_hash: 'a'.repeat(64) },
    });
    booted = await openFrameDialog(routes, { initialTab: 'table' });
    await booted.waitFor(() => !!cellShowing('#000000'));
    await editCell(booted, '#000000', 'not-a-colour');
    await booted.waitFor(() => text().includes('this is not a colour'));
    assert.equal(patches(booted).length, 0);
    await booted.waitFor(() => !!cellShowing('#000000'));
    await editCell(booted, '#000000', 'rgb(30, 136, 229)');
    await booted.waitFor(() => patches(booted!).length === 1);
    assert.deepEqual(patches(booted)[0].body, { hex: '#1e88e5' });
    await booted.unmount();

    const dates = frameRoutes('datetime', [{ value: '2026-05-01T12:00:00.000Z' }]);
    dates[`PATCH ${CONTENT}0/`] = (call: { body: FrameItem }) => ({
      item: call.body,
      frame: { size: 1, content_hash: 'a'.repeat(64) },
    });
    booted = await openFrameDialog(dates, { initialTab: 'table' });
    await booted.waitFor(() => !!cellShowing('2026-05-01T12:00:00.000Z'));
    await editCell(booted, '2026-05-01T12:00:00.000Z', 'the first of May');
    await booted.waitFor(() => text().includes('this date and time cannot be read'));
    assert.equal(patches(booted).length, 0);
    await editCell(booted, '2026-05-01T12:00:00.000Z', '2026-06-02T08:30:00Z');
    await booted.waitFor(() => patches(booted!).length === 1);
    assert.deepEqual(patches(booted)[0].body, { value: '2026-06-02T08:30:00.000Z' });
  });

  it('shows numbers with up to 20 fraction digits, long text with a tooltip, and file columns with their widths', async () => {
    booted = await openFrameDialog(frameRoutes('float', [{ value: 0.1 + 0.2 }, { value: 1 / 3 }]));
    await booted.waitFor(() => !!cellShowing('0.30000000000000004'));
    assert.ok(cellShowing('0.3333333333333333'));
    const cell = cellShowing('0.30000000000000004')!.closest('.bp6-table-cell')!;
    assert.equal(cell.getAttribute('title'), '0.30000000000000004');
    await booted.unmount();

    const file = { value: 'rivers.csv', size: 2048, mime_type: 'text/csv', download_url: '/api/v1/frame/7/file/x/download/' };
    booted = await openFrameDialog(frameRoutes('file', [file, { ...file, value: 'b.csv' }]));
    await booted.waitFor(() => headers().length === 4);
    assert.deepEqual(headers(), ['File name', 'Type', 'Size', 'Download']);
    assert.ok(cellShowing('2 KB'));
    assert.equal(cellShowing('b.csv')!.closest('.bp6-table-cell')!.getAttribute('title'), null, 'no tooltip up to 8 characters');
  });

  it('shows the message of spec 001 §8 for types that cannot be shown in a table', async () => {
    booted = await openFrameDialog(
      frameRoutes(
        'bbox',
        rows(2, () => ({ value: [1, 2, 3, 4] })),
      ),
      { initialTab: 'table' },
    );
    assert.ok(text().includes('Unfortunately, this data type cannot be displayed in a table.'));
    await booted.workbench.i18n.setLanguage('de', { persist: false });
    await booted.waitFor(() => text().includes('Dieser Datentyp kann leider nicht in einer Tabelle dargestellt werden.'));
  });

  it('row menu: opens a row in the Single view, duplicates it and deletes it after asking', async () => {
    let items = rows(3, (i) => ({ value: `river ${i}` }));
    let hash = 'a'.repeat(64);
    const routes = frameRoutes('string', items);
    routes[`GET ${CONTENT}`] = (call: Parameters<ReturnType<typeof contentOf>>[0]) => contentOf(items, hash)(call);
    routes[`POST ${CONTENT}1/duplicate/`] = () => {
      items = [items[0], items[1], items[1], items[2]];
      hash = 'b'.repeat(64);
      return { item: { value: 'river 1', index: 2 }, frame: { size: 4, content_hash: hash } };
    };
    routes[`DELETE ${CONTENT}2/`] = () => {
      items = [items[0], items[1], items[3]];
      hash = 'c'.repeat(64);
      return { status: 'ok', frame: { size: 3, content_hash: hash } };
    };
    booted = await openFrameDialog(routes);
    const menuButtons = () => document.querySelectorAll<HTMLElement>('[data-testid="frame-row-menu"]');
    const itemLabelled = (label: string) =>
      [...document.querySelectorAll<HTMLElement>('.bp6-popover .bp6-menu-item')].find((e) => e.textContent === label);
    const menu = async (row: number, label: string) => {
      await booted!.waitFor(() => menuButtons().length > row);
      menuButtons()[row].click();
      await booted!.waitFor(() => !!itemLabelled(label));
      itemLabelled(label)!.click();
    };
    await menu(1, 'Duplicate row');
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'POST'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'POST')!.query, { content_hash: 'a'.repeat(64) });
    await booted.waitFor(() => !itemLabelled('Duplicate row') && menuButtons().length === 4);

    await menu(2, 'Delete row');
    await booted.waitFor(() => text().includes('Delete row 3? This cannot be undone.'));
    assert.equal(booted.api.calls.filter((c) => c.method === 'DELETE').length, 0, 'nothing is deleted before the answer');
    [...document.querySelectorAll<HTMLElement>('.bp6-alert button')].find((b) => b.textContent !== 'Cancel')!.click();
    await booted.waitFor(() => booted!.api.calls.some((c) => c.method === 'DELETE'));
    assert.deepEqual(booted.api.calls.find((c) => c.method === 'DELETE')!.query, { content_hash: 'b'.repeat(64) });

    await booted.waitFor(() => menuButtons().length === 3);
    await menu(0, 'Open in single view');
    await booted.waitFor(() => byTestId('frame-single')?.getAttribute('data-index') === '0');
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { TestClient, TestServer } from '@werkbank/testing/node';
import { gdalPng, uploadLegend } from '../../plugins/layers/test/legend-fixtures';
import { browserSuite, expectAccessible, login } from './browser';

interface Author {
  id: number;
  username: string;
  password: string;
  client: TestClient;
}

/**
 * Two layer features in Chromium that were tested only in jsdom (issue 16, decision 0063), used by
 * an author who may change the objects but is no administrator: the legend upload on the layer
 * editor's Settings tab (a PNG made by GDAL, chosen by keyboard; the 130–140 px and transparency
 * guidance as warnings in the user's language, the legend kept after Save and a reload; a file that
 * is not a PNG refused in the user's language with nothing stored) and the typed metadata of the
 * depot editor's Metadata tab (text, select and date filled by keyboard, kept after a reload, a
 * cleared value dropped). Both screens pass WCAG 2.1 AA in English and German.
 */
describe('layers: the legend upload and a depot’s typed metadata (Chromium)', function () {
  let t: TestServer;
  let page: Page;
  let admin: TestClient;
  let author: Author;
  let layerId = 0;
  let legendedId = 0;
  let depotId = 0;
  const type = { text: 0, select: 0, date: 0 };
  const typeUri = { text: '', select: '', date: '' };
  const files = mkdtempSync(join(tmpdir(), 'werkbank-legend-e2e-'));
  /** Real files as an author picks them: GDAL PNGs and a text file that only calls itself .png. */
  const file = {
    fitting: join(files, 'legende-135.png'),
    wideOpaque: join(files, 'legende-200-deckend.png'),
    notPng: join(files, 'notiz.png'),
  };

  browserSuite(
    {
      admin: true,
      signIn: false,
      setUp: async (server) => {
        writeFileSync(file.fitting, gdalPng(135, 60, 4));
        writeFileSync(file.wideOpaque, gdalPng(200, 40, 3));
        writeFileSync(file.notPng, 'Legende: Eiche grün, Buche rot\n');
        const a = await server.admin();
        author = await server.user({ username: 'anna.autorin' });
        const mayChange = { permissions: [{ user: `/api/v1/user/${author.id}/`, perms: ['read', 'write'] }] };
        const layer = await a.post('/api/v1/layer/', { name: 'Baumstandorte', ...mayChange });
        assert.equal(layer.status, 201, JSON.stringify(layer.body));
        layerId = layer.body.id;
        const legended = await a.post('/api/v1/layer/', { name: 'Schutzgebiete', ...mayChange });
        assert.equal(legended.status, 201, JSON.stringify(legended.body));
        legendedId = legended.body.id;
        assert.equal((await uploadLegend(a, legended.body.resource_uri, gdalPng(135, 60, 4))).status, 200);

        const group = await a.post('/api/v1/metadatagroup/', { name: 'Herkunft' });
        assert.equal(group.status, 201, JSON.stringify(group.body));
        for (const [key, fields] of [
          ['text', { display_name: 'Quelle', datatype: 'text', description: 'Wer die Daten erhoben hat' }],
          ['select', { display_name: 'Lizenz', datatype: 'select', options: ['CC-BY 4.0', 'DL-DE/BY-2.0'] }],
          ['date', { display_name: 'Stand', datatype: 'date' }],
        ] as const) {
          const made = await a.post('/api/v1/metadataattributetype/', { ...fields, group: group.body.resource_uri });
          assert.equal(made.status, 201, JSON.stringify(made.body));
          type[key] = made.body.id;
          typeUri[key] = made.body.resource_uri;
        }
        const depot = await a.post('/api/v1/depot/', {
          name: 'Baumkataster',
          content_type: '/api/v1/type/feature/',
          metadata: { Ablage: 'Ordner 7' },
          ...mayChange,
        });
        assert.equal(depot.status, 201, JSON.stringify(depot.body));
        depotId = depot.body.id;
      },
    },
    (s) => ({ t, page, admin } = s),
  );
  after(() => rmSync(files, { recursive: true, force: true }));

  /** Signs the author in with `lang` as their language (profile and cookie, as the other suites switch). */
  async function signIn(lang: 'en' | 'de'): Promise<void> {
    await author.client.patch('/api/v2/backend/profile', { language: lang });
    await page.context().addCookies([{ name: 'werkbank_lang', value: lang, url: t.url }]);
    await login(page, t.url, author.username, author.password);
  }

  async function openSettings(id: number): Promise<void> {
    await page.goto(`${t.url}/layers/edit/${id}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('tab', { name: /^(Settings|Einstellungen)$/ }).click();
    await page.getByTestId('layer-legend').waitFor();
  }

  /**
   * What the file chooser picks. One listener for the page's whole life: a listener per choice
   * (waitForEvent) switches Playwright's file-chooser interception off and on again, and a chooser
   * opened in between is cancelled.
   */
  let picked = '';
  beforeEach(() => page.on('filechooser', (chooser) => void chooser.setFiles(picked)));

  /**
   * Opens the file chooser from the legend's file input with the keyboard, picks `path` and waits
   * for the upload's answer; the input keeps the keyboard focus.
   */
  async function chooseLegend(path: string): Promise<void> {
    picked = path;
    await page.locator('#layer-legend-file').focus();
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/legend/'));
    await page.keyboard.press('Space');
    await answered;
    await page.locator('#layer-legend-file:not([aria-disabled=true])').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'layer-legend-file', 'the focus stays on the input');
  }

  /** The shown legend's address and natural size, once the image has loaded or failed (0 × 0 then). */
  async function legendSize(): Promise<{ src: string; width: number; height: number }> {
    await page.getByTestId('layer-legend-image').waitFor();
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('[data-testid=layer-legend-image]')?.complete);
    return page.getByTestId('layer-legend-image').evaluate((el: HTMLImageElement) => ({
      src: el.getAttribute('src')!,
      width: el.naturalWidth,
      height: el.naturalHeight,
    }));
  }

  const warnings = () => page.getByTestId('layer-legend-warning').allInnerTexts();
  const layer = async (id: number) => (await admin.get(`/api/v1/layer/${id}/`)).body;

  it('uploads a PNG legend by keyboard, warns about width and transparency in English and German, and keeps it', async () => {
    await signIn('en');
    await openSettings(layerId);
    await page.getByTestId('layer-legend').getByText('No legend yet.').waitFor();
    const before = (await layer(layerId)).revision;

    // A legend within the guidance: stored at once, no warning.
    await chooseLegend(file.fitting);
    await page.getByText('Legend uploaded.').first().waitFor();
    assert.deepEqual(await legendSize(), { src: `/api/v1/layer/${layerId}/legend.png?v=1`, width: 135, height: 60 });
    assert.deepEqual(await warnings(), []);

    // 200 px wide and opaque: both warnings in English, and the legend is kept all the same.
    assert.equal(await page.locator('label[for=layer-legend-file]').innerText(), 'Replace');
    await chooseLegend(file.wideOpaque);
    await page.getByTestId('layer-legend-warning').first().waitFor();
    assert.deepEqual(await warnings(), [
      'The legend is 200 px wide; 130 to 140 px fit best. It was kept.',
      'The legend has no transparency; a transparent PNG fits every base map. It was kept.',
    ]);
    assert.deepEqual(await legendSize(), { src: `/api/v1/layer/${layerId}/legend.png?v=2`, width: 200, height: 40 });
    await expectAccessible(page);
    const stored = await layer(layerId);
    assert.equal(stored.legend, `/api/v1/layer/${layerId}/legend.png`);
    assert.equal(stored.revision, before + 2, 'each upload is a change of the layer');

    // The same file for an author who reads German: the warnings in German.
    await page.context().clearCookies();
    await signIn('de');
    await openSettings(layerId);
    assert.equal(await page.getAttribute('html', 'lang'), 'de');
    assert.equal(await page.locator('label[for=layer-legend-file]').innerText(), 'Ersetzen');
    await chooseLegend(file.wideOpaque);
    await page.getByTestId('layer-legend-warning').first().waitFor();
    assert.deepEqual(await warnings(), [
      'Die Legende ist 200 px breit; am besten passen 130 bis 140 px. Sie wurde übernommen.',
      'Die Legende hat keine Transparenz; ein transparentes PNG passt zu jeder Grundkarte. Sie wurde übernommen.',
    ]);
    await expectAccessible(page);

    // Save another field with the layer's Save: the legend stays; after a reload it loads from legend.png.
    await page.locator('#layer-description-title').fill('Bäume der Stadt');
    await page.getByTestId('layer-save').focus();
    await page.keyboard.press('Enter');
    await page.getByText('Objekt wurde gespeichert').first().waitFor();
    await page.reload();
    await page.waitForLoadState('networkidle');
    await page.getByTestId('layer-legend').waitFor();
    assert.equal(await page.inputValue('#layer-description-title'), 'Bäume der Stadt');
    assert.deepEqual(await legendSize(), { src: `/api/v1/layer/${layerId}/legend.png`, width: 200, height: 40 });
    const saved = await layer(layerId);
    assert.deepEqual([saved.legend, saved.description_title], [`/api/v1/layer/${layerId}/legend.png`, 'Bäume der Stadt']);
    await author.client.patch('/api/v2/backend/profile', { language: 'en' });
  });

  it('refuses a file that is not a PNG in the user’s language, and keeps the legend as it was', async () => {
    const before = await layer(legendedId);
    for (const [lang, message] of [
      ['en', 'This file is not a PNG image. Upload the legend as a PNG file.'],
      ['de', 'Diese Datei ist kein PNG-Bild. Laden Sie die Legende als PNG-Datei hoch.'],
    ] as const) {
      await page.context().clearCookies();
      await signIn(lang);
      await openSettings(legendedId);
      await chooseLegend(file.notPng);
      await page.getByTestId('layer-legend-error').waitFor();
      assert.equal(await page.getByTestId('layer-legend-error').innerText(), message);
      assert.deepEqual(await warnings(), []);
      assert.deepEqual(await legendSize(), { src: `/api/v1/layer/${legendedId}/legend.png`, width: 135, height: 60 });
      await expectAccessible(page);
    }
    const after = await layer(legendedId);
    assert.deepEqual([after.legend, after.revision], [before.legend, before.revision], 'nothing was stored');
    await page.reload();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(await legendSize(), { src: `/api/v1/layer/${legendedId}/legend.png`, width: 135, height: 60 });
    await author.client.patch('/api/v2/backend/profile', { language: 'en' });
  });

  const field = (key: keyof typeof type) => page.locator(`#depot-metadata-${type[key]}`);

  /** The depot screen, loaded anew (what is stored), and its editor opened by keyboard on the Metadata tab. */
  async function openMetadata(): Promise<void> {
    await page.goto(`${t.url}/depot/${depotId}/`);
    await page.waitForLoadState('networkidle');
    await page.getByTestId('depot-edit').focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog')
      .getByRole('tab', { name: /^(Metadata|Metadaten)$/ })
      .click();
    await page.getByTestId('depot-typed-metadata').waitFor();
  }

  async function saveDepot(): Promise<void> {
    await page.getByTestId('depot-save').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }

  const stored = async () => (await admin.get(`/api/v1/depot/${depotId}/`)).body.metadata;
  const byType = (values: Array<{ attributetype: string; value: string }>) =>
    Object.fromEntries(values.map((v) => [v.attributetype, v.value]));

  it('fills a depot’s typed metadata by keyboard, keeps it after a reload and drops a cleared value', async function () {
    this.timeout(120_000);
    await signIn('en');
    await openMetadata();
    const tab = page.getByTestId('depot-typed-metadata');
    await tab.locator('fieldset legend').getByText('Herkunft').waitFor();
    await page.getByLabel('Quelle').waitFor();

    await field('text').focus();
    await page.keyboard.type('Grünflächenamt');
    await field('select').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    assert.equal(await field('select').inputValue(), 'DL-DE/BY-2.0');
    await field('date').focus();
    await page.keyboard.type('11272026');
    assert.equal(await field('date').inputValue(), '2026-11-27');
    await saveDepot();

    const written = await stored();
    assert.equal(written.Ablage, 'Ordner 7', 'the depot’s other metadata stays');
    assert.deepEqual(byType(written.values), {
      [typeUri.text]: 'Grünflächenamt',
      [typeUri.select]: 'DL-DE/BY-2.0',
      [typeUri.date]: '2026-11-27',
    });
    const api = (await admin.get(`/api/v2/metadata/depot/${depotId}/`)).body;
    assert.deepEqual(byType(api.values), byType(written.values));

    await openMetadata();
    assert.equal(await field('text').inputValue(), 'Grünflächenamt');
    assert.equal(await field('select').inputValue(), 'DL-DE/BY-2.0');
    assert.equal(await field('date').inputValue(), '2026-11-27');

    // Clearing a value removes it; the others stay.
    await field('text').focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    assert.equal(await field('text').inputValue(), '');
    await saveDepot();
    const cleared = await stored();
    assert.deepEqual(byType(cleared.values), { [typeUri.select]: 'DL-DE/BY-2.0', [typeUri.date]: '2026-11-27' });
    assert.ok(!cleared.values.some((v: { value: string }) => v.value === ''), 'no empty value is stored');
    await openMetadata();
    assert.equal(await field('text').inputValue(), '');
    assert.equal(await field('select').inputValue(), 'DL-DE/BY-2.0');
  });

  it('passes WCAG 2.1 AA on the depot editor’s Metadata tab, in English and German', async () => {
    for (const lang of ['en', 'de'] as const) {
      await page.context().clearCookies();
      await signIn(lang);
      await openMetadata();
      assert.equal(await page.getAttribute('html', 'lang'), lang);
      assert.equal(await field('select').locator('option').first().innerText(), lang === 'en' ? 'not set' : 'nicht gesetzt');
      await expectAccessible(page);
    }
    await author.client.patch('/api/v2/backend/profile', { language: 'en' });
  });
});

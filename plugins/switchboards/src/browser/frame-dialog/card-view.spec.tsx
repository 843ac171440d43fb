import { byTestId, text, type BootedWorkbench } from '../switchboards-test-kit';
import assert from 'node:assert/strict';
import { activeTab, CONTENT, frameRoutes, openFrameDialog, rows } from './frame-dialog-test-kit';
import { THUMBNAIL_MAX_BYTES } from './datum-card-body';

const cards = () => [...document.querySelectorAll<HTMLElement>('[data-testid="frame-card"]')];

describe('frame dialog: card view (spec 001 §2.7)', function () {
  this.timeout(20000);
  let booted: BootedWorkbench | undefined;
  afterEach(async () => booted?.unmount());

  it('shows each datum read-only as its text, loads the next page while the cards do not fill the dialog, and opens a card in the Single view', async () => {
    booted = await openFrameDialog(
      frameRoutes(
        'bbox',
        rows(150, (i) => ({ value: [i, 2, 3, 4] })),
      ),
    );
    assert.equal(activeTab(), 'cards');
    await booted.waitFor(() => cards().length === 150);
    const pages = booted.api.calls.filter((c) => c.path === CONTENT).map((c) => (c.query as { offset: number }).offset);
    assert.deepEqual(pages, [0, 100]);
    assert.match(cards()[7].textContent ?? '', /7/);
    cards()[7].click();
    await booted.waitFor(() => activeTab() === 'single');
    assert.equal(byTestId('frame-single')!.getAttribute('data-index'), '7');
    assert.match(byTestId('frame-tab-single')!.textContent ?? '', /8 \/ 150/);
  });

  it('shows numbers with up to 20 fraction digits and colours as swatches', async () => {
    booted = await openFrameDialog(frameRoutes('float', [{ value: 0.1 + 0.2 }, { value: 2 }]), { initialTab: 'cards' });
    await booted.waitFor(() => cards().length === 2);
    assert.equal(cards()[0].textContent, '0.30000000000000004');
    await booted.unmount();
    booted = await openFrameDialog(frameRoutes('color', [{ hex: '#1e88e5' }, { hex: '#000000' }]), { initialTab: 'cards' });
    await booted.waitFor(() => cards().length === 2);
    assert.ok(text().includes('#1e88e5'));
  });

  it('gives image files a thumbnail up to the size limit, and every file its size, type and download link', async () => {
    // A sha256-like hex name per file, as the server's frame file addresses carry.
    const hash = (value: string) => Buffer.from(value).toString('hex').padEnd(64, '0');
    const file = (value: string, size: number, mime_type: string) => ({
      value,
      size,
      mime_type,
      download_url: `/api/v1/frame/7/file/${hash(value)}/download/`,
      embed_url: `/api/v1/frame/7/file/${hash(value)}/embed/`,
    });
    booted = await openFrameDialog(
      frameRoutes('file', [
        file('small.png', 1024, 'image/png'),
        file('large.png', THUMBNAIL_MAX_BYTES + 1, 'image/png'),
        file('rivers.csv', 1024, 'text/csv'),
      ]),
      { initialTab: 'cards' },
    );
    await booted.waitFor(() => cards().length === 3);
    const thumbs = [...document.querySelectorAll<HTMLImageElement>('[data-testid="frame-card-thumbnail"]')];
    assert.deepEqual(
      thumbs.map((i) => i.getAttribute('src')),
      [`/api/v1/frame/7/file/${hash('small.png')}/embed/`],
    );
    assert.match(cards()[2].textContent ?? '', /rivers\.csv.*1 KB · text\/csv.*Download/);
    assert.equal(cards()[2].querySelector('a')!.getAttribute('href'), `/api/v1/frame/7/file/${hash('rivers.csv')}/download/`);
  });

  it('links a file and shows its image only at a frame file address of the server', async () => {
    const forged = {
      value: 'evil.png',
      size: 10,
      mime_type: 'image/png',
      download_url: 'javascript:alert(1)',
      embed_url: 'https://tracker.example/pixel.png',
    };
    booted = await openFrameDialog(frameRoutes('file', [forged, { ...forged, value: 'b.png' }]), { initialTab: 'cards' });
    await booted.waitFor(() => cards().length === 2);
    assert.match(cards()[0].textContent ?? '', /evil\.png/);
    assert.equal(cards()[0].querySelector('a'), null, 'no link');
    assert.equal(document.querySelector('[data-testid="frame-card-thumbnail"]'), null, 'no image');
  });
});

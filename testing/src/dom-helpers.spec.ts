import assert from 'node:assert/strict';
import { cancelHreflessLinkClicks, clickText, failure, page, text, typeInto } from './browser-harness';

describe('jsdom helpers of plugin specs', () => {
  afterEach(() => document.body.replaceChildren());

  it('clicks by visible label, and names the label when nothing carries it', () => {
    const clicked: string[] = [];
    const button = document.createElement('button');
    button.textContent = ' Speichern ';
    button.addEventListener('click', () => clicked.push('save'));
    document.body.append(button);
    clickText('Speichern');
    assert.deepEqual(clicked, ['save']);
    assert.throws(() => clickText('Löschen'), /Nothing to click labelled 'Löschen'/);
  });

  it('cancels the default of a click on a link without href only, once however often it is installed', () => {
    cancelHreflessLinkClicks();
    cancelHreflessLinkClicks();
    const [menuItem, link] = [document.createElement('a'), document.createElement('a')];
    link.href = '#elsewhere';
    document.body.append(menuItem, link);
    const cancelled: boolean[] = [];
    const record = (e: Event) => {
      cancelled.push(e.defaultPrevented);
      e.preventDefault(); // this spec does not navigate
    };
    document.addEventListener('click', record);
    for (const a of [menuItem, link]) a.dispatchEvent(new window.MouseEvent('click', { bubbles: true, cancelable: true }));
    document.removeEventListener('click', record);
    assert.deepEqual(cancelled, [true, false]);
  });

  it('types into an input so that an input event carries the new value', () => {
    const input = document.createElement('input');
    document.body.append(input);
    const seen: string[] = [];
    input.addEventListener('input', () => seen.push(input.value));
    typeInto(input, 'Pegel');
    assert.deepEqual(seen, ['Pegel']);
    assert.equal(text(), '');
  });

  it('shapes list replies and rejections like the ApiClient', () => {
    assert.deepEqual(page(['a', 'b']), { objects: ['a', 'b'], meta: { offset: 0, limit: 20, total_count: 2 } });
    assert.throws(failure(409, 'Ordner nicht leer'), (e: Error & { status: number }) => {
      return e.message === 'Ordner nicht leer' && e.status === 409;
    });
  });
});

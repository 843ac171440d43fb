import assert from 'node:assert/strict';
import { formatBytes } from './blob-errors';
import { contentDisposition } from './content-disposition';
import { servedAs } from './inline-mime';
import { parseRange } from './parse-range';

/**
 * The header rules of sending a blob (which bytes a Range asks for, how a type is served, the file
 * name) and the size limit as a refused upload names it.
 */
describe('blob headers', () => {
  it('names a size limit as people read it: bytes, then KiB to TiB with at most one decimal', () => {
    const cases: Array<[number, string]> = [
      [0, '0 B'],
      [512, '512 B'],
      [1023, '1023 B'],
      [1024, '1 KiB'],
      [1536, '1.5 KiB'],
      [10 * 1024 ** 2, '10 MiB'],
      [5 * 1024 ** 3, '5 GiB'],
      [1.25 * 1024 ** 4, '1.3 TiB'],
      [2048 * 1024 ** 4, '2048 TiB'],
    ];
    for (const [bytes, text] of cases) assert.equal(formatBytes(bytes), text, String(bytes));
  });

  describe('parseRange', () => {
    const cases: Array<[string | undefined, number, ReturnType<typeof parseRange>]> = [
      [undefined, 100, undefined],
      ['bytes=0-9', 100, { start: 0, end: 9 }],
      ['bytes=90-', 100, { start: 90, end: 99 }],
      ['bytes=-10', 100, { start: 90, end: 99 }],
      ['bytes=-500', 100, { start: 0, end: 99 }],
      ['bytes=0-5000', 100, { start: 0, end: 99 }],
      ['bytes=0-1,5-6', 100, { start: 0, end: 1 }],
      // Spelling: case, and spaces wherever RFC 9110's optional whitespace may stand.
      ['  Bytes = 5 - 10 ', 100, { start: 5, end: 10 }],
      ['bytes=1 - 5', 100, { start: 1, end: 5 }],
      ['BYTES =3-4', 100, { start: 3, end: 4 }],
      // Malformed: the whole body is sent.
      ['xbytes=0-1', 100, undefined],
      ['items=0-1', 100, undefined],
      ['bytes=x1-5', 100, undefined],
      ['bytes=1-5x', 100, undefined],
      ['bytes=-', 100, undefined],
      ['bytes=10-5', 100, undefined],
      // Nothing of the body can be sent: 416.
      ['bytes=100-', 100, 'unsatisfiable'],
      ['bytes=100-200', 100, 'unsatisfiable'],
      ['bytes=-0', 100, 'unsatisfiable'],
      ['bytes=-5', 0, 'unsatisfiable'],
      ['bytes=0-', 0, 'unsatisfiable'],
    ];
    for (const [header, size, expected] of cases) {
      it(`${JSON.stringify(header)} of ${size} bytes gives ${JSON.stringify(expected)}`, () => {
        assert.deepEqual(parseRange(header, size), expected);
      });
    }
  });

  describe('servedAs', () => {
    const asIs = [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/avif',
      'image/bmp',
      'image/x-icon',
      'image/apng',
      'application/pdf',
      'application/json',
      'application/geo+json',
      'audio/mpeg',
      'audio/ogg',
      'audio/wav',
      'video/mp4',
      'video/webm',
      'video/ogg',
    ];
    const asText = [
      'text/plain',
      'text/csv',
      'text/tab-separated-values',
      'text/markdown',
      'application/xml',
      'text/xml',
      'application/gml+xml',
      'application/vnd.google-earth.kml+xml',
      'application/gpx+xml',
    ];

    it('shows images, PDF, JSON and media inline as they are', () => {
      for (const mime of asIs) assert.deepEqual(servedAs(mime, 'inline'), { contentType: mime, disposition: 'inline' }, mime);
    });

    it('shows text and XML dialects inline as plain UTF-8 text, never rendered', () => {
      for (const mime of asText)
        assert.deepEqual(servedAs(mime, 'inline'), { contentType: 'text/plain; charset=utf-8', disposition: 'inline' }, mime);
    });

    it('makes anything that could run script (HTML, SVG, unknown) a download of bytes', () => {
      for (const mime of ['text/html', 'image/svg+xml', 'application/xhtml+xml', 'application/x-unknown', ''])
        assert.deepEqual(servedAs(mime, 'inline'), { contentType: 'application/octet-stream', disposition: 'attachment' }, mime);
    });

    it('keeps the type of an attachment, text with its charset', () => {
      assert.deepEqual(servedAs('text/html', 'attachment'), {
        contentType: 'text/html; charset=utf-8',
        disposition: 'attachment',
      });
      assert.deepEqual(servedAs('text/csv', 'attachment'), { contentType: 'text/csv; charset=utf-8', disposition: 'attachment' });
      assert.deepEqual(servedAs('image/svg+xml', 'attachment'), { contentType: 'image/svg+xml', disposition: 'attachment' });
      assert.deepEqual(servedAs('application/zip', 'attachment'), { contentType: 'application/zip', disposition: 'attachment' });
    });
  });

  describe('contentDisposition', () => {
    it('gives an ASCII fallback and the exact name, percent-encoded as RFC 5987 asks', () => {
      assert.equal(
        contentDisposition('attachment', 'Bäume (2024) 100%.csv'),
        `attachment; filename="B_ume (2024) 100_.csv"; filename*=UTF-8''B%C3%A4ume%20%282024%29%20100%25.csv`,
      );
      assert.equal(contentDisposition('inline', "it's*.txt"), `inline; filename="it's*.txt"; filename*=UTF-8''it%27s%2A.txt`);
    });

    it('uses the last path segment, turns line breaks and tabs into spaces, and names an empty name download', () => {
      assert.equal(contentDisposition('attachment', 'a/b\\c.txt'), `attachment; filename="c.txt"; filename*=UTF-8''c.txt`);
      assert.equal(
        contentDisposition('attachment', 'x\r\ny\tz.txt'),
        `attachment; filename="x  y z.txt"; filename*=UTF-8''x%20%20y%20z.txt`,
      );
      assert.equal(contentDisposition('attachment', ''), `attachment; filename="download"; filename*=UTF-8''download`);
      assert.equal(contentDisposition('attachment', 'dir/'), `attachment; filename="download"; filename*=UTF-8''download`);
      assert.equal(contentDisposition('attachment', 'say "hi"\\'), `attachment; filename="download"; filename*=UTF-8''download`);
    });
  });
});

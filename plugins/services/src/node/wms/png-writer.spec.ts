import assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { encodePng } from './png-writer';

describe('WMS PNG writer', () => {
  it('writes RGBA rows unfiltered that read back as the same pixels', async () => {
    const canvas = createCanvas(7, 5);
    const g = canvas.getContext('2d');
    g.fillStyle = '#4f9d69';
    g.fillRect(1, 1, 4, 3);
    g.fillStyle = 'rgba(200, 20, 30, 1)';
    g.fillRect(5, 0, 2, 5);
    const pixels = g.getImageData(0, 0, 7, 5).data;
    const png = encodePng(pixels, 7, 5);
    assert.deepEqual([...png.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
    assert.equal(png.toString('latin1', 12, 16), 'IHDR');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]], [7, 5, 8, 6]);
    const idat = png.subarray(41, 41 + png.readUInt32BE(33));
    assert.equal(png.toString('latin1', 37, 41), 'IDAT');
    const raw = inflateSync(idat);
    assert.equal(raw.length, 5 * (7 * 4 + 1));
    for (let y = 0; y < 5; y++) {
      assert.equal(raw[y * 29], 0, 'no filter');
      assert.deepEqual([...raw.subarray(y * 29 + 1, (y + 1) * 29)], [...pixels.subarray(y * 28, (y + 1) * 28)]);
    }
    // Skia reads it back (CRCs and all) as the same opaque pixels.
    const back = createCanvas(7, 5);
    back.getContext('2d').drawImage(await loadImage(png), 0, 0);
    assert.deepEqual([...back.getContext('2d').getImageData(0, 0, 7, 5).data], [...pixels]);
  });

  it('refuses pixels that do not fit the size', () => {
    assert.throws(() => encodePng(new Uint8Array(10), 2, 2), /10 bytes for 2×2/);
  });
});

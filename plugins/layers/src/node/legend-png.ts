import { crc32 } from 'node:zlib';
import { LEGEND_MAX_SIDE, type LegendInfo } from '../common/legend';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bit depths each PNG colour type allows (PNG specification, 11.2.2 IHDR). */
const DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** Why bytes are not a legend PNG: a translation key of the `layers` namespace and its parameters. */
export interface PngProblem {
  key: string;
  params?: Record<string, unknown>;
}

/**
 * Reads a PNG's structure without decoding its pixels: the signature, IHDR first with a valid
 * size, colour type and bit depth, every chunk inside the bytes with a correct CRC, at least one
 * IDAT, and IEND last. Alpha is a colour type with alpha (4, 6) or a tRNS chunk.
 */
export function readLegendPng(bytes: Buffer): { info?: LegendInfo; problem?: PngProblem } {
  const notPng = { problem: { key: 'legend.errors.not_png' } };
  if (bytes.length < SIGNATURE.length + 25 || !bytes.subarray(0, 8).equals(SIGNATURE)) return notPng;
  let at = 8;
  let info: LegendInfo | undefined;
  let idat = false;
  let trns = false;
  let ended = false;
  while (at < bytes.length) {
    if (ended || at + 12 > bytes.length) return notPng;
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (length > 0x7fffffff || at + 12 + length > bytes.length) return notPng;
    const data = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== bytes.readUInt32BE(at + 8 + length)) return notPng;
    if (!info && type !== 'IHDR') return notPng;
    if (type === 'IHDR') {
      if (info || length !== 13) return notPng;
      const [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      const [depth, colour] = [data[8], data[9]];
      if (!width || !height || !DEPTHS[colour]?.includes(depth) || data[10] !== 0 || data[11] !== 0 || data[12] > 1)
        return notPng;
      if (width > LEGEND_MAX_SIDE || height > LEGEND_MAX_SIDE)
        return { problem: { key: 'legend.errors.too_large_image', params: { max: LEGEND_MAX_SIDE, width, height } } };
      info = { width, height, alpha: colour === 4 || colour === 6 };
    } else if (type === 'IDAT') idat = true;
    else if (type === 'tRNS') trns = true;
    else if (type === 'IEND') ended = true;
    at += 12 + length;
  }
  if (!info || !idat || !ended) return notPng;
  return { info: { ...info, alpha: info.alpha || trns } };
}

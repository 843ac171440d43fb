import type { BlobRange } from '@werkbank/sdk/node';

/**
 * Reads an HTTP `Range` header against a body of `size` bytes (RFC 9110 §14.1.2): `bytes=a-b`,
 * `bytes=a-` and `bytes=-n`; an end past the last byte is clamped. Returns the inclusive range,
 * `'unsatisfiable'` (416) when it starts at or past the end, or undefined when the header is
 * absent or malformed, which means: send the whole body. Of several ranges only the first is
 * served (no multipart/byteranges replies; clients that ask for several get the first one).
 */
export function parseRange(header: string | undefined, size: number): BlobRange | 'unsatisfiable' | undefined {
  const m = /^\s*bytes\s*=\s*([^,]*)/i.exec(header ?? '');
  if (!m) return undefined;
  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(m[1].trim());
  if (!spec || (spec[1] === '' && spec[2] === '')) return undefined;
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? Infinity : Number(spec[2]);
  if (end < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

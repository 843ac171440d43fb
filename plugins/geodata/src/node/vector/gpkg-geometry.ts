import { readWkb, type WkbGeometry } from './wkb-read';

/** Bytes of the envelope for each envelope indicator of the flags (GeoPackage 1.3 §2.1.3). */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

/**
 * The geometry of a GeoPackage geometry blob (OGC GeoPackage 1.3 §2.1.3): the header 'GP', version,
 * flags (byte order, envelope indicator, empty flag), srs_id and envelope, then standard WKB. An
 * empty geometry reads as null. Throws an Error saying what is broken.
 */
export function readGpkgGeometry(blob: Uint8Array): WkbGeometry | null {
  if (blob.length < 8 || blob[0] !== 0x47 || blob[1] !== 0x50) throw new Error('no GeoPackage geometry header (GP)');
  const flags = blob[3];
  const envelope = (flags >> 1) & 0x07;
  if (envelope >= ENVELOPE_BYTES.length) throw new Error(`envelope indicator ${envelope} is invalid`);
  if (flags & 0x20) throw new Error('extended geometry types are not supported');
  const start = 8 + ENVELOPE_BYTES[envelope];
  if (blob.length < start) throw new Error('the header is longer than the blob');
  if (flags & 0x10) return null;
  return readWkb(blob.subarray(start));
}

import { gdalImage, type Client, type Reply } from '@werkbank/testing/node';

/**
 * A PNG written by GDAL's PNG driver: `bands` 4 is RGBA (transparent background), 3 is RGB (opaque),
 * each band filled with one value.
 */
export const gdalPng = (width: number, height: number, bands: 3 | 4): Buffer => gdalImage('PNG', width, height, bands);

/** `POST {layer}legend/` as the Settings tab sends it: one `file` part (`lang`: the browser's language). */
export const uploadLegend = (c: Client, layer: string, bytes: Buffer, lang = 'en'): Promise<Reply> =>
  c.upload(`${layer}legend/`, { bytes, filename: 'legend.png' }, { headers: { 'accept-language': lang } });

/** GET on an address with the client's cookies (none for a signed-out client), as bytes. */
export const bytesAt = (c: Client, url: string) => c.bytes(url);

import { gdalImage, type Client, type Reply } from '@werkbank/testing/node';

// Small real images, written by GDAL's raster drivers.

/** A PNG (RGBA). */
export const PNG = gdalImage('PNG', 4, 3, 4);

/** A JPEG. */
export const JPEG = gdalImage('JPEG', 4, 3, 3);

/** A WebP. */
export const WEBP = gdalImage('WEBP', 4, 3, 3);

/** A GIF (one band). */
export const GIF = gdalImage('GIF', 1, 1, 1);

/** An SVG that would run a script if it were served as SVG from the workbench's origin. */
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');

/**
 * `POST {view}image/` as the Settings tab sends it: one `file` part named `filename` with the
 * declared `type` (the server ignores both); `lang` is the browser's language.
 */
export const uploadImage = (
  c: Client,
  view: string,
  bytes: Buffer,
  { filename = 'bild.png', type = 'image/png', lang = 'en' } = {},
): Promise<Reply> => c.upload(`${view}image/`, { bytes, filename, type }, { headers: { 'accept-language': lang } });

/** GET on an address with the client's cookies (none for a signed-out client), as bytes. */
export const bytesAt = (c: Client, url: string) => c.bytes(url);

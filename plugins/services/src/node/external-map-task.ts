/**
 * Stacks the images of an external map's sources (issue 17, decision 0083) in the server's worker
 * pool (decision 0026): plain code, no services. Decoding and encoding go through Skia
 * (@napi-rs/canvas), the WMS renderer's library.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';

export interface CompositeInput {
  width: number;
  height: number;
  format: 'image/png' | 'image/jpeg';
  /** True: pixels no source covers stay transparent (PNG only). */
  transparent: boolean;
  /** The background colour as #rrggbb. */
  background: string;
  /** PNG or JPEG images, bottom first; each is drawn scaled to the whole image. */
  images: Uint8Array[];
}

/** The sources' images drawn bottom-up over the background, encoded in the asked format. */
export async function compositeImages(input: CompositeInput): Promise<Uint8Array> {
  const canvas = createCanvas(input.width, input.height);
  const g = canvas.getContext('2d');
  if (!input.transparent || input.format === 'image/jpeg') {
    g.fillStyle = input.background;
    g.fillRect(0, 0, input.width, input.height);
  }
  for (const bytes of input.images) {
    const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    g.drawImage(image, 0, 0, input.width, input.height);
  }
  return input.format === 'image/jpeg' ? canvas.encodeSync('jpeg', 90) : canvas.encodeSync('png');
}

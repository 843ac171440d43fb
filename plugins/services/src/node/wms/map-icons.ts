/**
 * Billboard icons and graphics' images on WMS maps and legends (map-render-task.ts): the images
 * arrive as bytes (StyleImages fetched them on the server's main thread) and are decoded once per
 * drawing; an image that cannot be had is drawn as a square, as before.
 */
import { Image, Path2D, type SKRSContext2D } from '@napi-rs/canvas';
import { SHAPE_PATHS, type Symbolizer } from '@werkbank/plugin-layers/api';

/** A graphic's image by address, decoded once per drawing; null when it was not given or cannot be decoded. */
export type Icons = (url: string) => Image | null;

export function iconsOf(images: Record<string, Uint8Array> | undefined): Icons {
  const decoded = new Map<string, Image | null>();
  return (url) => {
    let image = decoded.get(url);
    if (image === undefined) {
      image = null;
      const bytes = images?.[url];
      if (bytes) {
        const img = new Image();
        img.onerror = () => undefined;
        img.src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
        if (img.width > 0 && img.height > 0) image = img;
      }
      decoded.set(url, image);
    }
    return image;
  };
}

/**
 * A billboard icon, or a graphic's image (`image`, fetched for the drawing by its address), of
 * `size` × `size` px as the map in the browser draws them, placed by its anchor (fractions of its
 * box) and offset (px). A graphic whose image could not be had is drawn as a square.
 */
export function drawIcon(g: SKRSContext2D, s: Extract<Symbolizer, { kind: 'icon' }>, x: number, y: number, image: Image | null) {
  const k = s.size / 24;
  const left = x - s.anchor[0] * s.size + s.offset[0];
  const top = y - s.anchor[1] * s.size + s.offset[1];
  if (image) {
    g.save();
    g.globalAlpha = s.opacity;
    g.drawImage(image, left, top, s.size, s.size);
    g.restore();
    return;
  }
  const path = new Path2D();
  path.addPath(new Path2D(SHAPE_PATHS[s.icon ?? 'square']), { a: k, b: 0, c: 0, d: k, e: left, f: top });
  g.save();
  g.globalAlpha = s.opacity;
  g.fillStyle = s.fill;
  g.fill(path, 'evenodd');
  g.restore();
}

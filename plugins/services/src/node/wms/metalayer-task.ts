/**
 * Stacks the legends of a metalayer's members (decision 0084) in the server's worker pool
 * (decision 0026): plain code, no services. Each member gets a line with its title and its legend
 * image below, top member first.
 */
import { createCanvas, GlobalFonts, loadImage } from '@napi-rs/canvas';
import { LABEL_FONT_FILE } from './map-render-task';

export interface LegendStackInput {
  /** Top member first: its title and its legend (PNG or JPEG bytes; null: the title alone). */
  entries: Array<{ title: string; image: Uint8Array | null }>;
  format: 'image/png' | 'image/jpeg';
  transparent: boolean;
  /** #rrggbb */
  background: string;
  /** The least width (px); wider legends widen the image. */
  minWidth: number;
}

/** Height of a member's title line (px). */
export const TITLE_ROW = 20;

const FAMILY = 'WerkbankLegendTitle';
let fontReady = false;

/** The members' titles and legends one below the other, as one image. */
export async function stackLegends(input: LegendStackInput): Promise<Uint8Array> {
  if (!fontReady) {
    fontReady = true;
    try {
      GlobalFonts.registerFromPath(LABEL_FONT_FILE, FAMILY);
    } catch {
      // Without the file Skia falls back to a system sans-serif.
    }
  }
  const images = await Promise.all(
    input.entries.map(async (e) =>
      e.image ? await loadImage(Buffer.from(e.image.buffer, e.image.byteOffset, e.image.byteLength)) : null,
    ),
  );
  const width = Math.max(input.minWidth, 1, ...images.map((i) => i?.width ?? 0));
  const height = Math.max(
    1,
    images.reduce((sum, i) => sum + TITLE_ROW + (i?.height ?? 0), 0),
  );
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  if (!input.transparent || input.format === 'image/jpeg') {
    g.fillStyle = input.background;
    g.fillRect(0, 0, width, height);
  }
  let top = 0;
  input.entries.forEach((entry, k) => {
    g.fillStyle = '#000000';
    g.font = `bold 12px ${FAMILY}, "DejaVu Sans", sans-serif`;
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    g.fillText(entry.title, 2, top + TITLE_ROW / 2, Math.max(1, width - 4));
    top += TITLE_ROW;
    const image = images[k];
    if (image) {
      g.drawImage(image, 0, top);
      top += image.height;
    }
  });
  return input.format === 'image/jpeg' ? canvas.encodeSync('jpeg', 90) : canvas.encodeSync('png');
}

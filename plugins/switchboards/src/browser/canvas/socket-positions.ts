import { BaseSocketPosition, type BaseSchemes } from '@werkbank/sdk/canvas';

/** How far a link's end lies outside its socket's centre (as Rete's classic preset draws it). */
const END_OFFSET = 12;

interface Pending {
  element: HTMLElement;
  parent: HTMLElement;
  done(centre: { x: number; y: number } | null): void;
}

/** The centre of `element` relative to `parent`, from offsets (layout units: the canvas zoom does not count). */
function centre(element: HTMLElement, parent: HTMLElement): { x: number; y: number } | null {
  let current = element.offsetParent as HTMLElement | null;
  if (!current) return null;
  let x = element.offsetLeft;
  let y = element.offsetTop;
  while (current && current !== parent) {
    x += current.offsetLeft + current.clientLeft;
    y += current.offsetTop + current.clientTop;
    current = current.offsetParent as HTMLElement | null;
  }
  return { x: x + element.offsetWidth / 2, y: y + element.offsetHeight / 2 };
}

/**
 * Where links end, measured like Rete's DOM socket positions, but in batches (bench/canvas): Rete
 * measures each socket as soon as it is drawn, and each measurement after a change to the page
 * forces a layout of the page — thousands of layouts while a big switchboard opens. Here every
 * socket drawn in the same task is measured together after it, reading only: one layout for all.
 * A socket not laid out yet (no offsetParent) is measured again in the next batch, one that left the
 * page is dropped.
 */
export class BatchedSocketPosition<S extends BaseSchemes, K> extends BaseSocketPosition<S, K> {
  private queue: Pending[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  async calculatePosition(nodeId: string, side: 'input' | 'output', _key: string, element: HTMLElement) {
    const view = this.area?.nodeViews.get(nodeId);
    if (!view?.element) return null;
    const parent = view.element;
    const c = await new Promise<{ x: number; y: number } | null>((done) => {
      this.queue.push({ element, parent, done });
      this.timer ??= setTimeout(() => this.flush(), 0);
    });
    return c && { x: c.x + END_OFFSET * (side === 'input' ? -1 : 1), y: c.y };
  }

  private flush(): void {
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    // All reads first (one layout), then the callbacks, which may change the page.
    const centres = batch.map((p) => centre(p.element, p.parent));
    batch.forEach((p, i) => {
      const c = centres[i];
      if (c) p.done(c);
      else if (!p.element.isConnected) p.done(null);
      else this.queue.push(p);
    });
    if (this.queue.length) this.timer ??= setTimeout(() => this.flush(), 0);
  }
}

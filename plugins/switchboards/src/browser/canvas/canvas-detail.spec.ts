import assert from 'node:assert/strict';
import { reaction } from '@werkbank/sdk/browser';
import { CanvasDetail } from './canvas-view-context';

describe('canvas: the level of detail (CanvasDetail)', () => {
  it('switches every item at once, except those asked to wait, which follow when released', () => {
    const d = new CanvasDetail();
    assert.equal(d.isFar('a'), false);
    d.setFar(true, ['b', 'c']);
    assert.deepEqual(
      ['a', 'b', 'c'].map((u) => d.isFar(u)),
      [true, false, false],
    );
    assert.equal(d.waiting, 2);
    assert.equal(d.release(1), true, 'one still waits');
    assert.deepEqual(
      ['a', 'b', 'c'].map((u) => d.isFar(u)),
      [true, true, false],
    );
    assert.equal(d.release(5), false, 'none left');
    assert.deepEqual(
      ['a', 'b', 'c'].map((u) => d.isFar(u)),
      [true, true, true],
    );
  });

  it('switching back while items wait: those that waited are at the new level already and wait no more', () => {
    const d = new CanvasDetail();
    d.setFar(true, ['b', 'c']);
    // Back near: b and c never became far; a (on screen) and d (off screen) are far and must switch.
    d.setFar(false, ['b', 'c', 'd']);
    assert.deepEqual(
      ['a', 'b', 'c', 'd'].map((u) => d.isFar(u)),
      [false, false, false, true],
    );
    assert.equal(d.waiting, 1);
    d.release(10);
    assert.equal(d.isFar('d'), false);
  });

  it('setting the level it has changes nothing', () => {
    const d = new CanvasDetail();
    d.setFar(false, ['a']);
    assert.equal(d.waiting, 0);
    assert.equal(d.isFar('a'), false);
  });

  it('releases the waiting items in portions, one per frame, until none are left', async () => {
    const d = new CanvasDetail();
    const seen: number[] = [];
    const stop = reaction(
      () => d.waiting,
      (n) => seen.push(n),
    );
    const frames: Array<() => void> = [];
    const raf = globalThis.requestAnimationFrame;
    globalThis.requestAnimationFrame = ((cb: () => void) => frames.push(cb)) as typeof requestAnimationFrame;
    try {
      d.setFar(true, ['a', 'b', 'c', 'd', 'e']);
      d.releaseLater(2);
      d.releaseLater(2); // asked again while it runs: still one loop
      for (let i = 0; i < 10 && frames.length; i++) {
        frames.shift()!();
        await new Promise((r) => setTimeout(r, 0));
      }
    } finally {
      if (raf) globalThis.requestAnimationFrame = raf;
      else delete (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame;
      stop();
    }
    assert.deepEqual(seen, [5, 3, 1, 0]);
    assert.equal(d.isFar('e'), true);
  });
});

import type { Page } from 'playwright-core';

/**
 * Frames per second (requestAnimationFrame callbacks) while the mouse drags in circles for `ms`
 * from `at` (page coordinates): how smoothly a page keeps drawing while it is panned. Used by the
 * canvas and viewer benches.
 */
export async function dragFps(
  page: Page,
  at: { x: number; y: number },
  ms: number,
  radius = { x: 200, y: 150 },
): Promise<number> {
  await page.evaluate(`(() => {
    window.__frames = 0;
    window.__counting = true;
    const tick = () => {
      if (!window.__counting) return;
      window.__frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  const start = Date.now();
  let i = 0;
  while (Date.now() - start < ms) {
    i++;
    await page.mouse.move(at.x + radius.x * Math.sin(i / 10), at.y + radius.y * Math.cos(i / 10));
  }
  await page.mouse.up();
  const elapsed = Date.now() - start;
  const frames = Number(await page.evaluate('(() => { window.__counting = false; return window.__frames; })()'));
  return (frames * 1000) / elapsed;
}

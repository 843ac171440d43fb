import { useEffect, useRef } from 'react';

/** spec 000 §9: infinite scroll throttle and distance from the bottom. */
export const INFINITE_SCROLL_THROTTLE_MS = 1000;
export const INFINITE_SCROLL_THRESHOLD_PX = 330;

/**
 * Calls `onLoadMore` when the page is scrolled to within 330 px of its bottom, at most once per
 * 1000 ms; also once after rendering when the content does not fill the window yet. With
 * `container` (an element that scrolls by itself, e.g. a dialog's body) its scrolling and size
 * count instead of the window's; while it is null nothing is loaded.
 */
export function useInfiniteScroll(
  onLoadMore: () => void,
  enabled: boolean,
  loadedCount = 0,
  container?: HTMLElement | null,
): void {
  const last = useRef(0);
  const callback = useRef(onLoadMore);
  callback.current = onLoadMore;
  useEffect(() => {
    if (!enabled || container === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const remaining = container
      ? () => container.scrollHeight - (container.scrollTop + container.clientHeight)
      : () => document.documentElement.scrollHeight - (window.scrollY + window.innerHeight);
    const check = () => {
      if (remaining() > INFINITE_SCROLL_THRESHOLD_PX) return;
      const now = Date.now();
      const wait = last.current + INFINITE_SCROLL_THROTTLE_MS - now;
      if (wait > 0) {
        if (!timer) timer = setTimeout(() => ((timer = undefined), check()), wait);
        return;
      }
      last.current = now;
      callback.current();
    };
    const target: HTMLElement | Window = container ?? window;
    target.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    check();
    return () => {
      target.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      if (timer) clearTimeout(timer);
    };
  }, [enabled, loadedCount, container]);
}

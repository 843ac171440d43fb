import { useEffect, useRef } from 'react';

/** spec 000 §9: infinite scroll throttle and distance from the bottom. */
export const INFINITE_SCROLL_THROTTLE_MS = 1000;
export const INFINITE_SCROLL_THRESHOLD_PX = 330;

/**
 * Calls `onLoadMore` when the page is scrolled to within 330 px of its bottom, at most once per
 * 1000 ms; also once after rendering when the content does not fill the window yet.
 */
export function useInfiniteScroll(onLoadMore: () => void, enabled: boolean, loadedCount = 0): void {
  const last = useRef(0);
  const callback = useRef(onLoadMore);
  callback.current = onLoadMore;
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const remaining = document.documentElement.scrollHeight - (window.scrollY + window.innerHeight);
      if (remaining > INFINITE_SCROLL_THRESHOLD_PX) return;
      const now = Date.now();
      const wait = last.current + INFINITE_SCROLL_THROTTLE_MS - now;
      if (wait > 0) {
        if (!timer) timer = setTimeout(() => ((timer = undefined), check()), wait);
        return;
      }
      last.current = now;
      callback.current();
    };
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    check();
    return () => {
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
      if (timer) clearTimeout(timer);
    };
  }, [enabled, loadedCount]);
}

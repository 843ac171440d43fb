/**
 * Opens a workbench route from code that runs outside React (a menu entry's `run`), without a
 * page load: pushes the address as the router's own navigations do (with the next history index)
 * and announces it with a popstate event, which the workbench's BrowserRouter follows.
 */
export function openRoute(path: string): void {
  const idx = ((history.state as { idx?: number } | null)?.idx ?? 0) + 1;
  history.pushState({ usr: null, key: Math.random().toString(36).slice(2, 10), idx }, '', path);
  window.dispatchEvent(new window.PopStateEvent('popstate', { state: history.state }));
}

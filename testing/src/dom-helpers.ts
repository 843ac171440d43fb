/**
 * What a plugin's jsdom specs do to the rendered workbench: read its text, find, click and type, and
 * shape the fake API's replies. They work on the global `document` that `installDom` installs, so
 * call them only after the browser harness was imported.
 */

/** The whole page's text (menus and dialogs render in portals outside the root). */
export const text = (): string => document.body.textContent ?? '';

/** The element whose `data-testid` is `id`, or null. */
export function byTestId<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.body.querySelector<T>(`[data-testid="${id}"]`);
}

/** Clicks the first element of `selector` whose text is `label` (menus render in portals); throws when none. */
export function clickText(label: string, selector = 'a, button'): void {
  const el = [...document.body.querySelectorAll<HTMLElement>(selector)].find((e) => e.textContent?.trim() === label);
  if (!el) throw new Error(`Nothing to click labelled '${label}'`);
  el.click();
}

/** Sets an input's value the way React notices (the native setter plus an input event). */
export function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  const proto = Object.getPrototypeOf(input) as object;
  Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value);
  input.dispatchEvent(new window.Event('input', { bubbles: true }));
}

/** The item texts of the menu that opened last (popovers render in portals, in order). */
export function lastMenu(): string[] {
  const menus = document.querySelectorAll('.bp6-menu');
  return [...(menus[menus.length - 1]?.querySelectorAll('li') ?? [])].map((li) => li.textContent ?? '');
}

/**
 * A list reply of the resource layer holding all of `objects` in one page; `limit` is only echoed in
 * `meta` (the list stores read `total_count`).
 */
export const page = <T>(objects: T[], limit = 20) => ({
  objects,
  meta: { offset: 0, limit, total_count: objects.length },
});

/** A fake answer that rejects like the ApiClient does: an Error with the server's reason and status. */
export const failure = (status: number, reason: string) => () => {
  throw Object.assign(new Error(reason), { status });
};

let guarded = false;

/**
 * Blueprint's menu items are <a> without href. A browser does nothing when one is clicked; jsdom
 * follows it to the page's address, which fails once the route changed. Cancels that default only,
 * for the rest of the process; calling it again does nothing.
 */
export function cancelHreflessLinkClicks(): void {
  if (guarded) return;
  guarded = true;
  document.addEventListener(
    'click',
    (e) => {
      if ((e.target as Element).closest?.('a:not([href])')) e.preventDefault();
    },
    true,
  );
}

import { useService, useT } from '../react-context';
import { ConfigStore } from '../config-store';
import type { MenuId, MenuItemDescriptor } from '../contributions';
import { Registries } from './workbench';
import { MAIN_MENU, featureOf } from './spec-routes';

export interface ResolvedMenuItem extends MenuItemDescriptor {
  /** False for a spec main-menu entry whose plugin is not installed. */
  installed: boolean;
}

const norm = (p: string) => (p.endsWith('/') ? p : `${p}/`);

/**
 * The items of a menu, translated. For the main menu the spec's entries come first in their
 * order; an entry is live when a plugin serves its route or contributes it.
 */
export function useMenuItems(menu: MenuId): ResolvedMenuItem[] {
  const registries = useService(Registries);
  const config = useService(ConfigStore);
  const t = useT();
  const ctx = { isSuperuser: config.isSuperuser, isEnabled: (c: string) => config.isEnabled(c) };
  const contributed = registries.menus.items(menu, ctx);
  const routes = registries.routes.all().map((r) => norm(r.path));
  const label = (key: string) => String(t(key.includes(':') ? key : `core:${key}`));
  // An entry that points at a spec route nobody serves is shown disabled ("not installed").
  const served = (i: MenuItemDescriptor) => !i.path || !featureOf(i.path) || routes.some((r) => norm(i.path!).startsWith(r));
  if (menu !== 'main') return contributed.map((i) => ({ ...i, label: label(i.label), installed: served(i) }));
  const skeleton: ResolvedMenuItem[] = MAIN_MENU.map((m) => {
    const override = contributed.find((c) => c.path && norm(c.path) === m.path);
    return {
      ...m,
      menu: 'main',
      ...(override ?? {}),
      label: label(override?.label ?? m.label),
      installed: !!override || routes.includes(m.path),
    };
  });
  const extra = contributed
    .filter((c) => !MAIN_MENU.some((m) => c.path && norm(c.path) === m.path))
    .map((c) => ({ ...c, label: label(c.label), installed: served(c) }));
  return [...skeleton, ...extra].sort((a, b) => (a.order ?? 100) - (b.order ?? 100));
}

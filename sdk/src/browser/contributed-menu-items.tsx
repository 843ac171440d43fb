import { MenuDivider, MenuItem } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { ConfigStore, Registries, useService, useT, type MenuId } from '@werkbank/kernel/browser';

export interface ContributedMenuItemsProps {
  /** The context menu other plugins contribute to (e.g. the Magazine's datum card menu). */
  menu: MenuId;
  /** The object the menu is for; each entry's `when` and `run` receive it. */
  target: unknown;
  /** The namespace a label without one is translated in (the menu owner's). */
  namespace: string;
}

/**
 * The entries other plugins contribute to a context menu, after a divider, for the menu's object:
 * those whose `when` holds for the caller (superuser, licensed components) and `target`, in order.
 * Renders nothing when there are none. Place it inside the menu, after the owner's own entries.
 */
export const ContributedMenuItems = observer(function ContributedMenuItems({
  menu,
  target,
  namespace,
}: ContributedMenuItemsProps) {
  const registries = useService(Registries);
  const config = useService(ConfigStore);
  const t = useT(namespace);
  const ctx = { isSuperuser: config.isSuperuser, isEnabled: (c: string) => config.isEnabled(c) };
  const contributed = registries.menus.items(menu, ctx, target);
  if (!contributed.length) return null;
  return (
    <>
      <MenuDivider />
      {contributed.map((item) => (
        <MenuItem
          key={item.id}
          icon={item.icon as never}
          text={t(item.label)}
          data-testid={`menu-${item.id}`}
          onClick={() => item.run?.(target)}
        />
      ))}
    </>
  );
});

import { useState } from 'react';
import { Button, Menu, MenuDivider, MenuItem } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { useLocation, useNavigate } from 'react-router';
import { useService, useT } from '../react-context';
import { ConfigStore } from '../config-store';
import { I18nService } from '../i18n-service';
import { LanguageSwitch } from './language-switch';
import { PasswordDialog } from './password-dialog';
import { useMenuItems, type ResolvedMenuItem } from './use-menu-items';

/** The sidebar: logo, product name, main menu, secondary menu and the user's menu (spec 000 §1, §9). */
export const Sidebar = observer(function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const config = useService(ConfigStore);
  const i18n = useService(I18nService);
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [pwOpen, setPwOpen] = useState(false);
  const main = useMenuItems('main');
  const secondary = useMenuItems('secondary');
  const userItems = useMenuItems('user');
  const docs = config.config.documentation[i18n.language];

  const open = (item: ResolvedMenuItem) => {
    if (item.run) item.run();
    else if (item.path && item.newTab) window.open(item.path, '_blank', 'noopener');
    else if (item.path && item.fullReload) location.assign(item.path);
    else if (item.path) navigate(item.path);
    onNavigate?.();
  };
  const renderItem = (item: ResolvedMenuItem) => {
    const el = (
      <MenuItem
        key={item.id}
        icon={(item.icon ?? 'dot') as never}
        text={item.label}
        disabled={!item.installed}
        active={!!item.path && item.installed && pathname.startsWith(item.path)}
        htmlTitle={item.installed ? undefined : String(t('menu.not_installed'))}
        data-testid={`menu-${item.id}`}
        onClick={() => open(item)}
      />
    );
    return el;
  };

  return (
    <nav className="wb-sidebar-content" aria-label="Werkbank">
      <a className="wb-brand" href="/" onClick={(e) => (e.preventDefault(), navigate('/'), onNavigate?.())}>
        <img src="/logo.svg" alt="" width={32} height={32} />
        <span className="wb-brand-name">{t('product')}</span>
      </a>
      <Menu className="wb-menu" data-testid="main-menu">
        {main.map(renderItem)}
        {secondary.length > 0 && <MenuDivider />}
        {secondary.map(renderItem)}
      </Menu>
      <div className="wb-sidebar-footer">
        <Menu>
          <MenuDivider title={config.config.auth.display_name ?? ''} />
          {userItems.map(renderItem)}
          <MenuItem icon="key" text={t('user.change_password')} onClick={() => setPwOpen(true)} />
          {docs && <MenuItem icon="manual" text={t('user.manual')} href={docs.manual} target="_blank" />}
          {docs && <MenuItem icon="learning" text={t('user.tutorials')} href={docs.tutorials} target="_blank" />}
          {config.isSuperuser && <MenuItem icon="cog" text={t('user.backend')} href="/backend/" data-testid="menu-backend" />}
          <MenuItem icon="log-out" text={t('user.logout')} href="/accounts/logout/" data-testid="menu-logout" />
        </Menu>
        <div className="wb-sidebar-lang">
          <LanguageSwitch />
        </div>
      </div>
      <PasswordDialog isOpen={pwOpen} onClose={() => setPwOpen(false)} />
    </nav>
  );
});

/** The button that opens the sidebar when it is not docked. */
export function SidebarButton({ onClick }: { onClick(): void }) {
  const t = useT();
  return (
    <Button
      icon="menu"
      variant="minimal"
      aria-label={String(t('menu.open_menu'))}
      data-testid="sidebar-button"
      onClick={onClick}
    />
  );
}

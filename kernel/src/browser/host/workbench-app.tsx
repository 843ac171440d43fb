import { Suspense, useEffect, useMemo, useState, type ComponentType } from 'react';
import { BlueprintProvider, Drawer, Spinner } from '@blueprintjs/core';
import { observer } from 'mobx-react-lite';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { Navigator, RouterNavigator } from '../navigator';
import { KernelContext, useService } from '../react-context';
import { ConfigStore } from '../config-store';
import type { RouteDescriptor } from '../contributions';
import type { Workbench } from './workbench';
import { Registries } from './workbench';
import { Sidebar, SidebarButton } from './sidebar';
import { ImpersonationBanner } from './impersonation-banner';
import { LoginPage } from './login-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { SetPasswordPage } from './set-password-page';
import { NotFoundPage } from './not-found-page';
import { HomePage } from './home-page';
import { Overlays } from './overlays';
import { KeybindingDispatcher } from './keybinding-dispatcher';
import { SIDEBAR_DOCK_MIN_WIDTH, SIDEBAR_WIDTH } from './spec-routes';
import { lazyScreen } from './lazy-screen';

/** True while the viewport is at least `px` wide. */
export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  const [matches, setMatches] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const on = () => setMatches(mq.matches);
    on();
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, [query]);
  return matches;
}

function screenOf(route: RouteDescriptor): ComponentType {
  if (route.component) return route.component;
  if (route.load) return lazyScreen(route.load);
  return NotFoundPage;
}

const Shell = observer(function Shell() {
  const config = useService(ConfigStore);
  const registries = useService(Registries);
  const { pathname, search } = useLocation();
  const docked = useMinWidth(SIDEBAR_DOCK_MIN_WIDTH);
  const [open, setOpen] = useState(false);
  const routes = useMemo(() => registries.routes.all().map((r) => ({ ...r, Screen: screenOf(r) })), [registries]);

  if (pathname.startsWith('/accounts/login')) {
    return config.isAuthenticated ? <Navigate to="/" replace /> : <LoginPage />;
  }
  // The public pages of account mail (decision 0041): open signed out, and signed in as well.
  if (pathname.startsWith('/accounts/set-password')) return <SetPasswordPage />;
  if (pathname.startsWith('/accounts/password-reset')) return <ForgotPasswordPage />;
  if (!config.isAuthenticated) {
    return <Navigate to={`/accounts/login/?next=${encodeURIComponent(pathname + search)}`} replace />;
  }
  const content = (
    <Suspense fallback={<Spinner className="wb-spinner" />}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        {routes.map((r) => (
          <Route key={r.id} path={r.path} element={<r.Screen />} />
        ))}
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
  return (
    <div className={`wb-shell ${docked ? 'wb-docked' : 'wb-undocked'}`}>
      {docked ? (
        <aside className="wb-sidebar" style={{ width: SIDEBAR_WIDTH }} data-testid="sidebar-docked">
          <Sidebar />
        </aside>
      ) : (
        <>
          <div className="wb-topbar">
            <SidebarButton onClick={() => setOpen(true)} />
          </div>
          <Drawer isOpen={open} onClose={() => setOpen(false)} position="left" size={SIDEBAR_WIDTH} className="wb-sidebar-drawer">
            <Sidebar onNavigate={() => setOpen(false)} />
          </Drawer>
        </>
      )}
      <main className="wb-main">
        <ImpersonationBanner />
        {content}
      </main>
      <KeybindingDispatcher />
      <NavigatorBridge />
    </div>
  );
});

/** Hands the router's navigate to the Navigator service, for code outside React. */
function NavigatorBridge() {
  const navigator = useService(Navigator);
  const navigate = useNavigate();
  useEffect(() => (navigator as RouterNavigator).attach((path, opts) => void navigate(path, opts)), [navigator, navigate]);
  return null;
}

/** The workbench host: React root with kernel, i18n, router, shell and overlays. */
export function WorkbenchApp({ workbench }: { workbench: Workbench }) {
  return (
    <KernelContext.Provider value={workbench.kernel.container}>
      <I18nextProvider i18n={workbench.i18n.i18n}>
        <BlueprintProvider>
          <BrowserRouter>
            <Shell />
            <Overlays />
          </BrowserRouter>
        </BlueprintProvider>
      </I18nextProvider>
    </KernelContext.Provider>
  );
}

import { createContext, useCallback, useContext, type ReactElement } from 'react';
import type { Container, Newable } from 'inversify';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { Token } from '../common/index';

export const KernelContext = createContext<Container | undefined>(undefined);

/** The service bound to `token` in the workbench container. */
export function useService<T>(t: Token<T> | Newable<T>): T {
  const container = useContext(KernelContext);
  if (!container) throw new Error('useService outside of the workbench');
  return container.get<T>(t);
}

/** Translations of a namespace (a plugin id): `const t = useT('tags'); t('list.title')`. */
export function useT(ns = 'core') {
  return useTranslation(ns).t;
}

/**
 * Wraps an element in the workbench's services and translations, for React roots of their own (the
 * canvas renders each node into one), so `useService` and `useT` work there too.
 */
export function useContextBridge(): (element: ReactElement) => ReactElement {
  const container = useContext(KernelContext);
  const { i18n } = useTranslation();
  return useCallback(
    (element: ReactElement) => (
      <KernelContext.Provider value={container}>
        <I18nextProvider i18n={i18n}>{element}</I18nextProvider>
      </KernelContext.Provider>
    ),
    [container, i18n],
  );
}

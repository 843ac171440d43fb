import { createContext, useContext } from 'react';
import type { Container } from 'inversify';
import { useTranslation } from 'react-i18next';
import type { Token } from '../common/index';

export const KernelContext = createContext<Container | undefined>(undefined);

/** The service bound to `token` in the workbench container. */
export function useService<T>(t: Token<T>): T {
  const container = useContext(KernelContext);
  if (!container) throw new Error('useService outside of the workbench');
  return container.get<T>(t);
}

/** Translations of a namespace (a plugin id): `const t = useT('tags'); t('list.title')`. */
export function useT(ns = 'core') {
  return useTranslation(ns).t;
}

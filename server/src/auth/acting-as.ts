import { AsyncLocalStorage } from 'node:async_hooks';

/** The superuser behind a request made while impersonating (issue 19): who really acts. */
export interface Impersonator {
  id: number;
  displayName: string;
}

const store = new AsyncLocalStorage<Impersonator>();

/** Runs `work` (a request's handlers) on behalf of `impersonator`; everything it records names both users. */
export function runActingAs<T>(impersonator: Impersonator, work: () => Promise<T>): Promise<T> {
  return store.run(impersonator, work);
}

/** The impersonator of the request being handled, if it is made while impersonating. */
export function currentImpersonator(): Impersonator | undefined {
  return store.getStore();
}

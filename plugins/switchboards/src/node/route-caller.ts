import { guard, requestOf, type ResourceRequest, type ServerServices, type WerkbankContext } from '@werkbank/sdk/node';

/**
 * The caller of a switchboard call outside the resource layer: 401 without a user, 403 for an API
 * key without `realm`.
 */
export function switchboardCaller(ctx: WerkbankContext, services: ServerServices, realm = 'switchboard'): ResourceRequest {
  guard(ctx, services.gate, undefined, realm);
  return requestOf(ctx, services);
}

/** Runs `fn` as the caller in one transaction; the switchboard kind's change event follows its commit. */
export function inSwitchboardTransaction<T>(
  ctx: WerkbankContext,
  services: ServerServices,
  fn: (r: ResourceRequest) => Promise<T>,
  realm = 'switchboard',
): Promise<T> {
  return services.resources.inTransaction(switchboardCaller(ctx, services, realm), 'switchboard', fn);
}

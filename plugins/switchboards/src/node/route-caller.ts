import { guard, requestOf, type ResourceRequest, type WerkbankContext } from '@werkbank/sdk/node';
import { SwitchboardsServices } from './switchboards-services';

/**
 * The caller of a switchboard call outside the resource layer: 401 without a user, 403 for an API
 * key without `realm`.
 */
export function switchboardCaller(ctx: WerkbankContext, services: SwitchboardsServices, realm = 'switchboard'): ResourceRequest {
  guard(ctx, services.gate, undefined, realm);
  return requestOf(ctx, services);
}

/** Runs `fn` as the caller in one transaction; the switchboard kind's change event follows its commit. */
export function inSwitchboardTransaction<T>(
  ctx: WerkbankContext,
  services: SwitchboardsServices,
  fn: (r: ResourceRequest) => Promise<T>,
  realm = 'switchboard',
): Promise<T> {
  return services.resources.inTransaction(switchboardCaller(ctx, services, realm), 'switchboard', fn);
}

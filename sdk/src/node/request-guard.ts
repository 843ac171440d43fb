import type { DataSource } from 'typeorm';
import type { ComponentGate } from '@werkbank/kernel';
import { ApiError } from './api-error';
import type { WerkbankContext } from './http-context';
import type { ResourceRequest, ResourceServices } from './resource-definition';

/** Refuses the call unless a user is signed in, the component is on and the API key's realms allow it. */
export function guard(ctx: WerkbankContext, gate: ComponentGate | undefined, component: string | undefined, realm: string): void {
  if (!ctx.state.user) throw ApiError.unauthorized();
  if (component && gate && !gate.isEnabled(component)) {
    throw new ApiError(403, 'component_disabled', 'errors.component_disabled', { name: component });
  }
  const realms = ctx.state.apiKeyRealms;
  if (realms && !realms.includes('*') && !realms.includes(realm)) {
    throw new ApiError(403, 'realm_denied', 'errors.realm_denied', { realm });
  }
}

/**
 * The resource-layer request of an HTTP call outside the generic routes (a plugin's own route):
 * the signed-in caller, its language and realms, the default manager. Call guard() first.
 */
export function requestOf(
  ctx: WerkbankContext,
  services: { dataSource: DataSource; resources: ResourceServices },
): ResourceRequest {
  if (!ctx.state.user) throw ApiError.unauthorized();
  return {
    user: ctx.state.user,
    t: ctx.state.t,
    lang: ctx.state.lang,
    manager: services.dataSource.manager,
    services: services.resources,
    realms: ctx.state.apiKeyRealms,
  };
}

import { token } from '@werkbank/kernel';
import type { EntitySchema, MigrationInterface } from 'typeorm';
import type Router from '@koa/router';
import type { Disposable, RegistrySink, TranslationBundle } from '@werkbank/kernel';
import type { ResourceDefinition } from './resources/resource-definition';
import type { WerkbankState } from './http/context';

/** Node-side contribution points (DESIGN §2). Each has a token of the same name. */

export interface EntityDescriptor {
  id: string;
  entities: EntitySchema[];
  /** Migration classes, run in name order across all plugins (names start with a timestamp). */
  migrations: Array<new () => MigrationInterface>;
}
export const EntityContribution = token<EntityContribution>('EntityContribution');
export interface EntityContribution {
  registerEntities(registry: RegistrySink<EntityDescriptor>): void;
}

export const ResourceContribution = token<ResourceContribution>('ResourceContribution');
export interface ResourceContribution {
  registerResources(registry: RegistrySink<ResourceDefinition>): void;
}

/** Extra HTTP routes beyond the resource layer. `mount` receives a router under the app root. */
export interface RouteDescriptor {
  id: string;
  /** API key realms the routes check with guard(); listed as known realms. */
  realms?: string[];
  /** OpenAPI path entries of the routes, merged into /api/openapi.json. */
  openapi?: Record<string, unknown>;
  mount(router: Router<WerkbankState>): void;
}
export const HttpRouteContribution = token<HttpRouteContribution>('HttpRouteContribution');
export interface HttpRouteContribution {
  registerHttpRoutes(registry: RegistrySink<RouteDescriptor>): void;
}

export const NodeTranslationContribution = token<NodeTranslationContribution>('NodeTranslationContribution');
export interface NodeTranslationContribution {
  registerTranslations(registry: RegistrySink<TranslationBundle>): void;
}

export { DatumTypeContribution } from '@werkbank/kernel';

/** A unit a switchboard node runs. Its first users arrive with the switchboard engine. */
export interface PortDescriptor {
  name: string;
  content_type: string;
  is_optional?: boolean;
  is_list?: boolean;
  is_dict?: boolean;
  default_value?: unknown;
}
export interface FunctionRunContext {
  signal: AbortSignal;
  progress(fraction: number): void;
  log(message: string): void;
}
export interface FunctionDescriptor {
  /** Dotted name; the first segment is the namespace (`wfs.import`). */
  id: string;
  verbose_name: Record<string, string>;
  doc: Record<string, string>;
  inputs: PortDescriptor[];
  outputs: PortDescriptor[];
  hidden?: boolean;
  superuser_required?: boolean;
  run(inputs: Record<string, unknown>, ctx: FunctionRunContext): Promise<Record<string, unknown>>;
}
export const FunctionContribution = token<FunctionContribution>('FunctionContribution');
export interface FunctionContribution {
  registerFunctions(registry: RegistrySink<FunctionDescriptor>): void;
}

/** Public service endpoints (WFS, WMS, ...). Their first users arrive with the services issue. */
export interface ServiceEndpointDescriptor {
  id: string;
  /** Path prefix under which the endpoint is mounted, e.g. `/services/wfs/`. */
  prefix: string;
  mount(router: Router<WerkbankState>): void;
}
export const ServiceEndpointContribution = token<ServiceEndpointContribution>('ServiceEndpointContribution');
export interface ServiceEndpointContribution {
  registerServiceEndpoints(registry: RegistrySink<ServiceEndpointDescriptor>): void;
}

/**
 * Runs once after migrations, before the server listens. Must not await slow I/O (STYLE §8): start
 * background work and return a Disposable that stops it; it is disposed when the server closes.
 */
export interface StartupHookDescriptor {
  id: string;
  run(services: StartupServices): void | Disposable | Promise<void | Disposable>;
}
export interface StartupServices {
  dataSource: import('typeorm').DataSource;
  log(message: string): void;
}
export const StartupHookContribution = token<StartupHookContribution>('StartupHookContribution');
export interface StartupHookContribution {
  registerStartupHooks(registry: RegistrySink<StartupHookDescriptor>): void;
}

/**
 * @werkbank/sdk/node: what a plugin's node entry may use. Contribution points, the resource
 * layer's types, ApiError, small helpers, and the interfaces and tokens of the server's services
 * (inject them with `@inject(Token)`; the server implements them, a test may rebind any of them).
 */
export * from '../common/index';
export * from './api-error';
export * from './http-context';
export * from './resource-definition';
export * from './resource-ref';
export * from './request-guard';
export * from './named-permissions';
export * from './contributions';
export * from './function-contribution';
export * from './function-inputs';
export * from './returned-rows';
export * from './trigram-index';
export * from './services/server-config';
export * from './services/database';
export * from './services/logger';
export * from './services/process-role';
export * from './services/translator';
export * from './services/user-directory';
export * from './services/event-feed';
export * from './services/function-catalog';
export * from './services/datum-validator';
export * from './services/blob-store';
export { blobColumnTriggers } from './blob-column-triggers';
export * from './services/blob-downloads';
export * from './services/request-bodies';
export * from './services/url-fetcher';
export * from './services/message-bus';
export * from './services/job-queue';
export * from './services/worker-pool';
export {
  EntitySchema,
  type DataSource,
  type EntityManager,
  type MigrationInterface,
  type QueryRunner,
  type SelectQueryBuilder,
} from 'typeorm';
export * from './blueprint-icon-names';

import { token } from '@werkbank/kernel';
import type { DataSource } from 'typeorm';

/**
 * The server's TypeORM DataSource (PostgreSQL or the embedded PGlite), open before any plugin
 * contribution is created. Plugin SQL uses parameters only; plugin tables come from the plugin's
 * own migrations (EntityContribution).
 */
export const Database = token<DataSource>('Database');

/**
 * Constant statements run as named prepared statements on the pool (parsed and planned once per
 * connection): for hot paths such as the execution engine. Outside any transaction.
 */
export interface PreparedStatements {
  query<T = Record<string, unknown>>(name: string, text: string, values: unknown[]): Promise<T[]>;
}
export const PreparedStatements = token<PreparedStatements>('PreparedStatements');

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type EntitySchema, type EntitySubscriberInterface, type MigrationInterface } from 'typeorm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface DatabaseOptions {
  /** postgres://... selects a PostgreSQL server; absent means embedded PGlite. */
  databaseUrl?: string;
  /** Folder of the embedded database; 'memory://' keeps it in memory (tests). */
  dataDir: string;
  entities: EntitySchema[];
  migrations: Array<new () => MigrationInterface>;
  /** Subscriber instances (e.g. TransactionHooks), registered before migrations run. */
  subscribers?: EntitySubscriberInterface[];
  log: (message: string) => void;
}

export interface DatabaseHandle {
  dataSource: DataSource;
  kind: 'embedded' | 'postgres';
  /** Connection string clients (benchmarks, the pg peer) can use. */
  url: string;
  close(): Promise<void>;
}

/**
 * Opens the database and runs pending migrations. Embedded: PGlite served in-process through
 * pglite-socket on a private unix socket, so TypeORM's pg driver talks to it like to any server
 * (DESIGN §3, §6). The socket queues queries; a connection inside a transaction holds the others.
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  let url = options.databaseUrl;
  let socket: PGLiteSocketServer | undefined;
  let pglite: PGlite | undefined;
  let socketDir: string | undefined;
  if (!url) {
    const memory = options.dataDir.startsWith('memory://');
    const dir = memory ? options.dataDir : join(options.dataDir, 'pg');
    if (!memory) mkdirSync(dir, { recursive: true });
    // pg_trgm: trigram indexes make ?q= substring searches fast (as on a PostgreSQL server).
    pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
    // A unix socket in a private folder (mode 0700): only this server's user can reach the
    // embedded database, which has no password (a loopback port would be open to every local user).
    socketDir = mkdtempSync(join(tmpdir(), 'werkbank-db-'));
    socket = new PGLiteSocketServer({ db: pglite, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 32, idleTimeout: 0 });
    await socket.start();
    url = `postgres://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}`;
  }
  const dataSource = new DataSource({
    type: 'postgres',
    url,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'werkbank_migrations',
    synchronize: false,
    logging: false,
    // Embedded: one connection. pglite-socket interleaves the protocol messages of concurrent
    // connections when a large message arrives in several reads ("portal does not exist",
    // electric-sql/pglite#977); PGlite runs one query at a time anyway, so nothing is lost.
    extra: { max: socket ? 1 : 10 },
  });
  await dataSource.initialize();
  // TypeORM builds subscribers from decorated classes only; instances are added after initialize.
  dataSource.subscribers.push(...(options.subscribers ?? []));
  const ran = await dataSource.runMigrations({ transaction: 'each' });
  if (ran.length) options.log(`Ran ${ran.length} database migration(s)`);
  return {
    dataSource,
    kind: socket ? 'embedded' : 'postgres',
    url,
    async close() {
      if (dataSource.isInitialized) await dataSource.destroy();
      if (socket) await socket.stop();
      if (pglite) await pglite.close();
      if (socketDir) rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

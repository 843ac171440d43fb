import type {
  DataSource,
  EntityManager,
  EntitySubscriberInterface,
  QueryRunner,
  TransactionCommitEvent,
  TransactionRollbackEvent,
  TransactionStartEvent,
} from 'typeorm';

interface Pending {
  /** Transaction depth when queued: 1 for the outer transaction, more inside savepoints. */
  depth: number;
  run: () => void;
}

/** TypeORM keeps the savepoint depth in a protected field (0 outside a transaction). */
const depthOf = (qr: QueryRunner): number => (qr as unknown as { transactionDepth?: number }).transactionDepth ?? 1;

/**
 * Work that must wait for a transaction to commit (messages about what it wrote), keyed by the
 * transaction's query runner. A TypeORM subscriber on the DataSource: after the outermost COMMIT
 * the queued callbacks run in order; a ROLLBACK drops them; a savepoint that rolls back drops only
 * what was queued inside it. Entries of a runner whose rollback failed (lost connection) are dropped
 * when the runner starts its next transaction, or with the runner (WeakMap).
 */
export class TransactionHooks implements EntitySubscriberInterface {
  private readonly pending = new WeakMap<QueryRunner, Pending[]>();

  constructor(private readonly log: (m: string) => void = (m) => console.error(m)) {}

  /** The hooks registered on `dataSource`; registers one when there is none yet. */
  static of(dataSource: DataSource): TransactionHooks {
    const found = dataSource.subscribers.find((s): s is TransactionHooks => s instanceof TransactionHooks);
    if (found) return found;
    const hooks = new TransactionHooks();
    dataSource.subscribers.push(hooks);
    return hooks;
  }

  /**
   * Runs `fn` after the transaction `manager` belongs to commits, or now when it is in none.
   * Returns false when `fn` ran at once. `fn` must not throw (failures are logged) and should not
   * block: it runs inside TypeORM's commit, before the connection is released.
   */
  afterCommit(manager: EntityManager, fn: () => void): boolean {
    const qr = manager.queryRunner;
    if (!qr?.isTransactionActive) {
      this.run(fn);
      return false;
    }
    let list = this.pending.get(qr);
    if (!list) this.pending.set(qr, (list = []));
    list.push({ depth: depthOf(qr), run: fn });
    return true;
  }

  afterTransactionStart(event: TransactionStartEvent): void {
    if (event.queryRunner && depthOf(event.queryRunner) === 1) this.pending.delete(event.queryRunner);
  }

  afterTransactionCommit(event: TransactionCommitEvent): void {
    const qr = event.queryRunner;
    const list = qr && this.pending.get(qr);
    if (!list) return;
    if (qr.isTransactionActive) {
      // A savepoint was released: its entries now belong to the enclosing level.
      const depth = depthOf(qr);
      for (const p of list) p.depth = Math.min(p.depth, depth);
      return;
    }
    this.pending.delete(qr);
    for (const p of list) this.run(p.run);
  }

  afterTransactionRollback(event: TransactionRollbackEvent): void {
    const qr = event.queryRunner;
    const list = qr && this.pending.get(qr);
    if (!list) return;
    if (!qr.isTransactionActive) {
      this.pending.delete(qr);
      return;
    }
    const depth = depthOf(qr);
    this.pending.set(
      qr,
      list.filter((p) => p.depth <= depth),
    );
  }

  private run(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      this.log(`After-commit callback failed: ${(e as Error).stack ?? String(e)}`);
    }
  }
}

/** Runs `fn` after `manager`'s transaction commits (dropped on rollback), or now outside one. */
export function afterCommit(manager: EntityManager, fn: () => void): boolean {
  return TransactionHooks.of(manager.dataSource).afterCommit(manager, fn);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from 'src/platform/database/unit-of-work';

/** State a transaction may change: saved when it begins, put back if it rolls back. */
export interface TransactionalState {
  snapshot(): unknown;
  restore(snapshot: unknown): void;
}

interface Transaction {
  afterCommit: (() => void)[];
}

/**
 * The unit of work of the in-memory fakes. A transaction commits when its work resolves: then its
 * after-commit callbacks run, in order. When the work throws (or the commit is made to fail), the
 * state enlisted by the fakes is put back as it was and the callbacks are dropped. Nested calls
 * join the outer transaction. Transactions run one at a time, as if each held every row it reads.
 */
export class InMemoryUnitOfWork extends UnitOfWork {
  private readonly current = new AsyncLocalStorage<Transaction>();
  private readonly states: TransactionalState[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private commitFailure: Error | null = null;
  /** Errors of after-commit callbacks: they undo nothing, as in the real unit of work, which logs them. */
  readonly callbackErrors: unknown[] = [];

  /** A fake's state joins every transaction from now on. */
  enlist(state: TransactionalState): void {
    this.states.push(state);
  }

  /** The next transaction's work succeeds but its commit fails (a lost connection, a serialization failure). */
  failNextCommit(error = new Error('commit failed')): void {
    this.commitFailure = error;
  }

  get inTransaction(): boolean {
    return this.current.getStore() !== undefined;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    const turn = this.queue.then(() => this.transact(work));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Transactions run one at a time here anyway: a lane is the same as any other. */
  runInLane<T>(_lane: string, work: () => Promise<T>): Promise<T> {
    return this.run(work);
  }

  afterCommit(callback: () => void): void {
    const transaction = this.current.getStore();
    if (transaction) transaction.afterCommit.push(callback);
    else this.runCallback(callback);
  }

  async all<T extends readonly unknown[]>(reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
    const tasks = reads as readonly (() => Promise<unknown>)[];
    if (!this.inTransaction) return (await Promise.all(tasks.map((read) => read()))) as unknown as T;
    const results: unknown[] = [];
    for (const read of tasks) results.push(await read());
    return results as unknown as T;
  }

  private async transact<T>(work: () => Promise<T>): Promise<T> {
    const transaction: Transaction = { afterCommit: [] };
    const snapshots = this.states.map((state) => state.snapshot());
    let result: T;
    try {
      result = await this.current.run(transaction, work);
      const failure = this.commitFailure;
      this.commitFailure = null;
      if (failure) throw failure;
    } catch (error) {
      this.states.forEach((state, i) => state.restore(snapshots[i]));
      throw error;
    }
    for (const callback of transaction.afterCommit) this.runCallback(callback);
    return result;
  }

  private runCallback(callback: () => void): void {
    try {
      callback();
    } catch (error) {
      this.callbackErrors.push(error);
    }
  }
}

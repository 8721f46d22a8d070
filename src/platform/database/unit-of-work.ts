/**
 * Port: runs a use case's writes in one transaction. Nested calls join the outer transaction;
 * `afterCommit` callbacks run once the outermost transaction has committed (the doorbell of the
 * event log rings there), and are dropped on rollback.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  abstract afterCommit(callback: () => void): void;
  /**
   * Runs independent reads: at once on the pool outside a transaction, one after another inside
   * one (a transaction is one connection, which takes one query at a time).
   */
  abstract all<T extends readonly unknown[]>(reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T>;
}

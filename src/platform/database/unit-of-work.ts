/**
 * Port: runs a use case's writes in one transaction. Nested calls join the outer transaction;
 * `afterCommit` callbacks run once the outermost transaction has committed (the doorbell of the
 * event log rings there), and are dropped on rollback.
 */
export abstract class UnitOfWork {
  abstract run<T>(work: () => Promise<T>): Promise<T>;
  /**
   * As `run`, on a connection kept for `lane` alone: a writer that runs all the time (the streamed
   * tokens of every answer) never queues for the pool behind a burst of requests. A lane's
   * transactions run one after another: its caller never overlaps them.
   */
  abstract runInLane<T>(lane: string, work: () => Promise<T>): Promise<T>;
  abstract afterCommit(callback: () => void): void;
  /**
   * Runs independent reads: at once on the pool outside a transaction, one after another inside
   * one (a transaction is one connection, which takes one query at a time).
   */
  abstract all<T extends readonly unknown[]>(reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T>;
}

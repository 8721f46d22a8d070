import { Injectable, Logger } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import type { Pool } from 'pg';
import { DataSource, EntityManager, EntityTarget, ObjectLiteral, QueryRunner, Repository } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

const CACHED_PLAN_CHANGED = '0A000';
/** Deadlock and serialisation failure: PostgreSQL rolled the transaction back, and it may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 3;

interface Transaction {
  manager: EntityManager;
  afterCommit: (() => void)[];
}

/** Transactions carried by AsyncLocalStorage, so repositories join the current one without plumbing. */
@Injectable()
export class TypeormUnitOfWork extends UnitOfWork {
  private readonly logger = new Logger(TypeormUnitOfWork.name);
  private readonly current = new AsyncLocalStorage<Transaction>();
  private readonly lanes = new Map<string, QueryRunner>();

  constructor(private readonly dataSource: DataSource) {
    super();
  }

  /** Runs `work` in a transaction on the pool, or in the current one, as `transact` says. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transact(work, (transaction, attempt) =>
      this.dataSource.transaction((manager) => {
        transaction.manager = manager;
        return this.current.run(transaction, attempt);
      }),
    );
  }

  /**
   * As `run`, on the lane's own query runner, taken from the pool at its first transaction and kept.
   * A connection the lane lost is given back to the pool (which discards it) and replaced: at the
   * next transaction, or at once when BEGIN fails, since nothing ran on it yet.
   */
  runInLane<T>(lane: string, work: () => Promise<T>): Promise<T> {
    return this.transact(work, async (transaction, attempt) => {
      let runner = this.laneRunner(lane);
      try {
        await runner.startTransaction();
      } catch {
        await this.dropLane(lane, runner);
        runner = this.laneRunner(lane);
        await runner.startTransaction();
      }
      transaction.manager = runner.manager;
      try {
        const result = await this.current.run(transaction, attempt);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => this.dropLane(lane, runner));
        throw error;
      }
    });
  }

  /**
   * Runs `work` in a transaction `begin` opens, or in the current one. When PostgreSQL rolls the
   * outermost one back to break a deadlock (or a serialisation failure), it runs again, at most
   * three times in all: the victim of two transactions that locked in opposite orders then succeeds
   * instead of failing its request. After-commit callbacks run once, those of the attempt that committed.
   */
  private async transact<T>(
    work: () => Promise<T>,
    begin: (transaction: Transaction, work: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    if (this.current.getStore()) return work();
    for (let attempt = 1; ; attempt++) {
      const transaction: Transaction = { manager: this.dataSource.manager, afterCommit: [] };
      let result: T;
      try {
        result = await begin(transaction, work);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
        this.logger.warn({ code, attempt }, 'transaction rolled back by PostgreSQL; running it again');
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
        continue;
      }
      for (const callback of transaction.afterCommit) {
        try {
          callback();
        } catch (error) {
          this.logger.error({ err: error }, 'after-commit callback failed');
        }
      }
      return result;
    }
  }

  private laneRunner(lane: string): QueryRunner {
    let runner = this.lanes.get(lane);
    // A runner whose connection failed was released by TypeORM, which handed the error to the pool.
    if (!runner || runner.isReleased) {
      runner = this.dataSource.createQueryRunner();
      this.lanes.set(lane, runner);
    }
    return runner;
  }

  private async dropLane(lane: string, runner: QueryRunner): Promise<void> {
    if (this.lanes.get(lane) === runner) this.lanes.delete(lane);
    await runner.release().catch(() => undefined);
  }

  afterCommit(callback: () => void): void {
    const transaction = this.current.getStore();
    if (transaction) transaction.afterCommit.push(callback);
    else callback();
  }

  async all<T extends readonly unknown[]>(reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
    const tasks = reads as readonly (() => Promise<unknown>)[];
    if (!this.current.getStore()) return (await Promise.all(tasks.map((read) => read()))) as unknown as T;
    const results: unknown[] = [];
    for (const read of tasks) results.push(await read());
    return results as unknown as T;
  }

  /** The manager of the current transaction, or the pool's outside one. */
  manager(): EntityManager {
    return this.current.getStore()?.manager ?? this.dataSource.manager;
  }

  /**
   * A read that runs on nearly every request: outside a transaction it goes straight to the pool as
   * a named prepared statement (PostgreSQL parses and plans it once per connection, and TypeORM's
   * query runner is skipped); inside one it joins the transaction like any other query.
   */
  async hotRead<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    const transaction = this.current.getStore();
    if (transaction) return transaction.manager.query<T[]>(text, values);
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    try {
      return (await pool.query<T & object>({ name, text, values })).rows;
    } catch (error) {
      // A migration that changed a column's type invalidates the connection's prepared plan
      // ("cached plan must not change result type"); PostgreSQL re-plans it on the next use.
      if ((error as { code?: string }).code !== CACHED_PLAN_CHANGED) throw error;
      return (await pool.query<T & object>(text, values)).rows;
    }
  }

  repository<E extends ObjectLiteral>(entity: EntityTarget<E>): Repository<E> {
    return this.manager().getRepository(entity);
  }
}

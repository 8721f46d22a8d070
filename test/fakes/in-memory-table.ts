import type { InMemoryUnitOfWork, TransactionalState } from 'test/fakes/unit-of-work';

/**
 * The rows of one table of a fake: ids from a sequence, which, as PostgreSQL's, a rollback does
 * not give back. Rows go in and out as copies, so that nobody changes a stored row by holding it.
 */
export class InMemoryTable<T extends { id: number }> implements TransactionalState {
  private rows: T[] = [];
  private lastId = 0;

  constructor(unitOfWork?: InMemoryUnitOfWork) {
    unitOfWork?.enlist(this);
  }

  nextId(): number {
    return ++this.lastId;
  }

  insert(row: T): T {
    this.rows.push(structuredClone(row));
    return structuredClone(row);
  }

  /** Copies of the rows that match, in insertion (id) order. */
  select(where: (row: T) => boolean = () => true): T[] {
    return this.rows.filter(where).map((row) => structuredClone(row));
  }

  /** Applies `change` to the stored rows that match; returns copies of them as changed. */
  update(where: (row: T) => boolean, change: (row: T) => void): T[] {
    const matched = this.rows.filter(where);
    for (const row of matched) change(row);
    return matched.map((row) => structuredClone(row));
  }

  delete(where: (row: T) => boolean): number {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => !where(row));
    return before - this.rows.length;
  }

  snapshot(): unknown {
    return structuredClone(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as T[];
  }
}

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
    this.rows.push(copyOf(row));
    return copyOf(row);
  }

  /** Copies of the rows that match, in insertion (id) order. */
  select(where: (row: T) => boolean = () => true): T[] {
    return this.rows.filter(where).map((row) => copyOf(row));
  }

  /** Applies `change` to the stored rows that match; returns copies of them as changed. */
  update(where: (row: T) => boolean, change: (row: T) => void): T[] {
    const matched = this.rows.filter(where);
    for (const row of matched) change(row);
    return matched.map((row) => copyOf(row));
  }

  delete(where: (row: T) => boolean): number {
    const before = this.rows.length;
    this.rows = this.rows.filter((row) => !where(row));
    return before - this.rows.length;
  }

  snapshot(): unknown {
    return copyOf(this.rows);
  }

  restore(snapshot: unknown): void {
    this.rows = snapshot as T[];
  }
}

/**
 * A deep copy made with this realm's constructors. `structuredClone` is Node's, outside the realm
 * Jest runs a spec in: its dates failed `instanceof Date` there, unlike those the driver returns.
 */
function copyOf<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return value.map(copy);
  if (value instanceof Map) return new Map([...value].map(([key, item]) => [key, copy(item)]));
  if (value instanceof Set) return new Set([...value].map(copy));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item)]));
  }
  return value;
}

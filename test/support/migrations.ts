import { expect } from 'test/support/expect';
import type { DataSource } from 'typeorm';

/** Back to the schema before `migration` (a class name's prefix) and every one that came after it. */
export async function undoMigrationsFrom(dataSource: DataSource, migration: string): Promise<void> {
  const [{ n }] = await dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM migrations
     WHERE id >= (SELECT id FROM migrations WHERE name LIKE $1)`,
    [`${migration}%`],
  );
  expect(n).toBeGreaterThan(0);
  for (let i = 0; i < n; i += 1) await dataSource.undoLastMigration();
}

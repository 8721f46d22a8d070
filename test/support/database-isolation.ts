import { expect } from 'test/support/expect';
import { createTestApp } from 'test/support/test-app';

/**
 * Two spec files call this at the same time: each creates the same table and writes its own
 * name. On a shared database the second CREATE TABLE fails, or a file sees the other's row.
 */
export async function expectOwnDatabase(file: string): Promise<void> {
  const t = await createTestApp();
  try {
    await t.dataSource.query('CREATE TABLE isolation_probe (file text NOT NULL)');
    await t.dataSource.query('INSERT INTO isolation_probe (file) VALUES ($1)', [file]);
    // Real time, in which the other file's worker does the same: the two must overlap.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const rows = await t.dataSource.query<{ file: string }[]>('SELECT file FROM isolation_probe');
    expect(rows).toEqual([{ file }]);
  } finally {
    await t.close();
  }
}

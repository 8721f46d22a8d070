import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import { expect } from 'test/support/expect';
import { createTestDatabase } from 'test/support/test-app';
import { DataSource } from 'typeorm';
import { undoMigrationsFrom } from 'test/support/migrations';

const MIGRATION = 'NormalisedNames';

describe('the migration to NFKC-unique names, on names stored before it', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(createDataSourceOptions(database.url)).initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('removes invisible characters, renames the later of names that now collide, and then keeps them unique', async () => {
    // Back to the schema before the migration (and any that came after it).
    await undoMigrationsFrom(dataSource, MIGRATION);

    const [{ id: workspaceId }] = await dataSource.query<{ id: number }[]>(
      "INSERT INTO workspaces (s_id, name) VALUES ('wspMigr001', 'Acme') RETURNING id",
    );
    const names = ['Ledger', 'Ｌｅｄｇｅｒ', 'Ledger\u200b', '\u200b', 'Ｒｅｐｏｒｔｓ', 'Notes'];
    for (const [i, name] of names.entries()) {
      await dataSource.query(
        "INSERT INTO spaces (s_id, workspace_id, name, kind) VALUES ($1, $2, $3, 'regular')",
        [`spcMigr00${i}`, workspaceId, name],
      );
      await dataSource.query(
        `INSERT INTO data_sources (s_id, workspace_id, name, description, connector_id, service_api_project_id,
           assistant_default_selected) VALUES ($1, $2, $3, '', 'c', 'p', false)`,
        [`dtsMigr00${i}`, workspaceId, name],
      );
    }

    await dataSource.runMigrations();

    for (const [table, prefix] of [
      ['spaces', 'spcMigr00'],
      ['data_sources', 'dtsMigr00'],
    ]) {
      const rows = await dataSource.query<{ name: string }[]>(`SELECT name FROM ${table} ORDER BY id`);
      expect(rows.map((row) => row.name)).toEqual([
        'Ledger',
        `Ｌｅｄｇｅｒ (${prefix}1)`,
        `Ledger (${prefix}2)`,
        `Unnamed ${prefix}3`,
        'Ｒｅｐｏｒｔｓ',
        'Notes',
      ]);
      await expect(
        dataSource.query(`UPDATE ${table} SET name = 'REPORTS' WHERE name = 'Notes'`),
      ).rejects.toThrow(/duplicate key/);
    }
  });
});

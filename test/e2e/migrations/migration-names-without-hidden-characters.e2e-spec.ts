import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import { expect } from 'test/support/expect';
import { createTestDatabase } from 'test/support/test-app';
import { DataSource } from 'typeorm';
import { undoMigrationsFrom } from 'test/support/migrations';

const MIGRATION = 'NamesWithoutHiddenCharacters';

describe('the migration that takes hidden characters out of stored names', () => {
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

  it('removes them everywhere a member names something, sparing emoji, renaming what then collides', async () => {
    // Back to the schema before the migration (and any that came after it).
    await undoMigrationsFrom(dataSource, MIGRATION);

    const insert = async (sql: string, values: unknown[]) =>
      ((await dataSource.query<{ id: number }[]>(`${sql} RETURNING id`, values))[0] ?? { id: 0 }).id;
    const workspaceId = await insert('INSERT INTO workspaces (s_id, name) VALUES ($1, $2)', [
      'wspMigr003',
      'Acme\u202e',
    ]);
    const userId = await insert(
      `INSERT INTO users (s_id, email, username, first_name, last_name, full_name, provider)
       VALUES ($1, 'ada@example.com', 'ada', 'Ada\u200b', 'Love\u00adlace', $2, 'api')`,
      ['usrMigr001', 'Ada\u200b  Love\u00adlace'],
    );
    await insert(
      `INSERT INTO api_keys (s_id, workspace_id, user_id, name, scopes, secret_hash, display_prefix)
       VALUES ('key_Migr001', $1, $2, $3, '{}', repeat('0', 64), 'sk-0000')`,
      [workspaceId, userId, 'CI\u0085 key'],
    );
    const names = (table: string) => [
      [`${table}1`, 'ev-ok'],
      [`${table}2`, 'ev-ok\u200b'],
      [`${table}3`, '\u2066\u2069'],
      [`${table}4`, '👩\u200d💻 Dev  team\u{e0041}'],
    ];
    for (const [sId, name] of names('vlt_Migr00')) {
      await insert("INSERT INTO spaces (s_id, workspace_id, name, kind) VALUES ($1, $2, $3, 'regular')", [
        sId,
        workspaceId,
        name,
      ]);
    }
    for (const [sId, name] of names('mcp_Migr00')) {
      await insert(
        "INSERT INTO remote_mcp_servers (s_id, workspace_id, name, url, description) VALUES ($1, $2, $3, 'https://mcp.example.com/', '')",
        [sId, workspaceId, name],
      );
    }
    for (const [sId, name] of names('tag_Migr00')) {
      await insert("INSERT INTO tags (s_id, workspace_id, name, kind) VALUES ($1, $2, $3, 'standard')", [
        sId,
        workspaceId,
        name,
      ]);
    }
    for (const [sId, name] of names('skl_Migr00')) {
      await insert("INSERT INTO skills (s_id, workspace_id, name, description) VALUES ($1, $2, $3, '')", [
        sId,
        workspaceId,
        name,
      ]);
    }
    for (const [sId, name] of names('dts_Migr00')) {
      await insert(
        `INSERT INTO data_sources (s_id, workspace_id, name, description, connector_id, service_api_project_id,
           assistant_default_selected) VALUES ($1, $2, $3, '', 'c', 'p', false)`,
        [sId, workspaceId, name],
      );
    }

    await dataSource.runMigrations();

    const read = (sql: string) => dataSource.query<Record<string, string>[]>(sql);
    expect(await read('SELECT name FROM workspaces WHERE id = ' + String(workspaceId))).toEqual([
      { name: 'Acme' },
    ]);
    expect(await read('SELECT full_name, first_name, last_name FROM users')).toEqual([
      { full_name: 'Ada Lovelace', first_name: 'Ada', last_name: 'Lovelace' },
    ]);
    expect(await read('SELECT name FROM api_keys')).toEqual([{ name: 'CI key' }]);
    // Where names are unique, the later "ev-ok" gets its sId; elsewhere two servers may share one.
    for (const [table, prefix, unique] of [
      ['spaces', 'vlt_Migr00', true],
      ['remote_mcp_servers', 'mcp_Migr00', false],
      ['tags', 'tag_Migr00', true],
      ['skills', 'skl_Migr00', true],
      ['data_sources', 'dts_Migr00', true],
    ] as const) {
      const rows = await read(`SELECT name FROM ${table} WHERE s_id LIKE '${prefix}%' ORDER BY id`);
      expect({ table, names: rows.map((row) => row.name) }).toEqual({
        table,
        names: [
          'ev-ok',
          unique ? `ev-ok (${prefix}2)` : 'ev-ok',
          `Unnamed ${prefix}3`,
          '👩\u200d💻 Dev  team',
        ],
      });
    }
  });
});

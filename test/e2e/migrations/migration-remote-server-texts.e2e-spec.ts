import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import { expect } from 'test/support/expect';
import { createTestDatabase } from 'test/support/test-app';
import { DataSource } from 'typeorm';
import { undoMigrationsFrom } from 'test/support/migrations';

const MIGRATION = 'RemoteServerTextsShown';

describe('the migration that hides credentials and response bytes of remote tool servers', () => {
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

  it('removes credentials from URLs and replaces errors that repeated a server answer, leaving the rest', async () => {
    // Back to the schema before the migration (and any that came after it).
    await undoMigrationsFrom(dataSource, MIGRATION);

    const [{ id: workspaceId }] = await dataSource.query<{ id: number }[]>(
      "INSERT INTO workspaces (s_id, name) VALUES ('wspMigr002', 'Acme') RETURNING id",
    );
    const stored: [string, string | null][] = [
      ['http://ada:hunter2@mcp.example.com/mcp', null],
      ['HTTPS://sk-live-51Hx@mcp.example.com:8443/mcp?team=a@b', null],
      ['https://a@b:c@mcp.example.com/mcp', null],
      ['https://mcp.example.com/mcp?contact=ops@example.com', 'The server answered HTTP 500.'],
      [
        'https://mcp.example.com/other',
        'The server did not list its tools: Streamable HTTP error: Error POSTing to endpoint: stack trace',
      ],
      ['https://mcp.example.com/third', 'The server did not answer as an MCP server: Unexpected token <'],
      [
        'https://mcp.example.com/fourth',
        'The server could not be reached: connect ECONNREFUSED 10.0.0.1:80.',
      ],
    ];
    for (const [i, [url, lastSyncError]] of stored.entries()) {
      await dataSource.query(
        `INSERT INTO remote_mcp_servers (s_id, workspace_id, name, url, description, last_sync_error)
         VALUES ($1, $2, $3, $4, '', $5)`,
        [`mcp_Migr00${i}`, workspaceId, `Server ${i}`, url, lastSyncError],
      );
    }

    await dataSource.runMigrations();

    const rows = await dataSource.query<{ url: string; last_sync_error: string | null }[]>(
      'SELECT url, last_sync_error FROM remote_mcp_servers ORDER BY id',
    );
    const replaced = 'The last synchronisation failed; synchronise the server again to see why.';
    expect(rows).toEqual([
      { url: 'http://mcp.example.com/mcp', last_sync_error: null },
      { url: 'HTTPS://mcp.example.com:8443/mcp?team=a@b', last_sync_error: null },
      { url: 'https://mcp.example.com/mcp', last_sync_error: null },
      {
        url: 'https://mcp.example.com/mcp?contact=ops@example.com',
        last_sync_error: 'The server answered HTTP 500.',
      },
      { url: 'https://mcp.example.com/other', last_sync_error: replaced },
      { url: 'https://mcp.example.com/third', last_sync_error: replaced },
      {
        url: 'https://mcp.example.com/fourth',
        last_sync_error: 'The server could not be reached: connect ECONNREFUSED 10.0.0.1:80.',
      },
    ]);
  });
});

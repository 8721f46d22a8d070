import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSourceOptions } from 'src/app.data-source';
import { CHUNK_SEARCH_SCHEMA } from 'src/modules/data-sources/infrastructure/data-sources.entities';
import { generateMigration } from 'src/platform/database/generate-migration';
import { expect } from 'test/support/expect';
import { createTestDatabase } from 'test/support/test-app';
import { DataSource } from 'typeorm';

/** `migration generate` on a migrated database: what a developer runs after changing an entity. */
describe('migration generate', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  let directory: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await new DataSource(createDataSourceOptions(database.url)).initialize();
    directory = await mkdtemp(join(tmpdir(), 'migrations-'));
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('finds nothing to write: the migrations build exactly what the entities declare', async () => {
    await expect(
      generateMigration(dataSource, 'Nothing', directory, [CHUNK_SEARCH_SCHEMA]),
    ).resolves.toBeNull();
    expect(await readdir(directory)).toEqual([]);
  });

  it('writes what an entity declares and the database lacks, leaving the hand-made search columns alone', async () => {
    await dataSource.query('DROP INDEX "IDX_e8cf5793294c9a3fd2f91ad712"');
    const file = await generateMigration(dataSource, 'ChunkDocumentIndex', directory, [CHUNK_SEARCH_SCHEMA]);
    expect(file).toMatch(/-ChunkDocumentIndex\.ts$/);
    const source = await readFile(file!, 'utf8');
    expect(source).toContain('CREATE INDEX "IDX_e8cf5793294c9a3fd2f91ad712"');
    expect(source).not.toMatch(/"tsv"|"ts_config"|IDX_data_source_document_chunks_tsv|typeorm_metadata/);
  });
});

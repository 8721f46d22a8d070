import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import { stopEmbeddedPostgres } from 'src/platform/database/embedded-postgres';
import { GLOBAL_STATE, type GlobalTestState } from 'test/support/global-setup';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as { [GLOBAL_STATE]?: GlobalTestState })[GLOBAL_STATE];
  if (!state) throw new Error('The global setup left no state: it did not run or failed.');
  await rm(state.openApiDocument, { force: true });
  if (state.dataDir) {
    await state.release();
    // A connection a spec left open must not keep the server past the run.
    await stopEmbeddedPostgres(state.dataDir);
    await rm(state.dataDir, { recursive: true, force: true });
    return;
  }
  // On a server we do not own, drop what this run created.
  const admin = new Client({ connectionString: state.adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1',
    [`wa_test_${state.runId}_%`],
  );
  for (const { datname } of rows) {
    await admin.query(`DROP DATABASE IF EXISTS ${admin.escapeIdentifier(datname)} WITH (FORCE)`);
  }
  await admin.end();
}

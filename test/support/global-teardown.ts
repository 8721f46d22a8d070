import { rm } from 'node:fs/promises';
import { Client } from 'pg';
import type { GlobalTestState } from 'test/support/global-setup';

export default async function globalTeardown(state: GlobalTestState): Promise<void> {
  if (state.dataDir) {
    await state.release();
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

import { execFile } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { startOrAttachEmbeddedPostgres } from 'src/platform/database/embedded-postgres';
import { TEST_ENV, databaseName, withDatabase } from 'test/support/test-database';

const run = promisify(execFile);

export interface GlobalTestState {
  release(): Promise<void>;
  dataDir: string | null;
  adminUrl: string;
  openApiDocument: string;
  runId: string;
}

/** Where the setup leaves its state for the teardown, which Jest runs in the same process. */
export const GLOBAL_STATE = Symbol.for('workspace-agent-api.test.global-state');

/**
 * One PostgreSQL for the whole run (embedded, or DATABASE_URL when it names a test database),
 * and one template database migrated by the real CLI; each e2e file copies the template.
 * Jest starts its workers after this, with this process's environment: that is how they learn
 * where the database and the service build are.
 */
export default async function globalSetup(
  _globalConfig: unknown,
  project: { rootDir: string },
): Promise<void> {
  const runId = Math.random().toString(36).slice(2, 8);
  let adminUrl: string;
  let release: () => Promise<void>;
  let dataDir: string | null = null;
  const given = process.env.DATABASE_URL;
  if (given) {
    if (!databaseName(given).includes('test')) {
      throw new Error(
        `Refusing to run tests against "${databaseName(given)}": its name must contain "test".`,
      );
    }
    adminUrl = given;
    release = async () => {};
  } else {
    dataDir = await mkdtemp(join(tmpdir(), 'wa-test-'));
    // The server may run as the `postgres` user: it must be able to enter the directory.
    await chmod(dataDir, 0o755);
    const handle = await startOrAttachEmbeddedPostgres({
      dataDir,
      log: () => undefined,
      database: 'wa_test_admin',
    });
    adminUrl = handle.url;
    release = () => handle.release();
  }

  const template = `wa_test_${runId}_template`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(template)}`);
  await admin.end();

  // The service the specs run as a process is the one Jest runs: the same build.
  const serviceBuild = join(project.rootDir, 'dist-test');
  await run(process.execPath, [join(serviceBuild, 'src', 'cli.js'), 'migration', 'run'], {
    env: { ...process.env, DATABASE_URL: withDatabase(adminUrl, template), LOG_LEVEL: 'error' },
  });

  // Jest declares tests synchronously: a spec with one test per operation reads the document here.
  const openApiDocument = join(tmpdir(), `wa-test-${runId}-openapi.json`);
  const { stdout } = await run(process.execPath, [join(serviceBuild, 'src', 'cli.js'), 'openapi'], {
    env: { ...process.env, DATABASE_URL: withDatabase(adminUrl, template), LOG_LEVEL: 'error' },
    maxBuffer: 64 * 1024 * 1024,
  });
  await writeFile(openApiDocument, stdout);

  const state: GlobalTestState = { release, dataDir, adminUrl, runId, openApiDocument };
  (globalThis as { [GLOBAL_STATE]?: GlobalTestState })[GLOBAL_STATE] = state;
  Object.assign(process.env, {
    [TEST_ENV.adminUrl]: adminUrl,
    [TEST_ENV.templateDatabase]: template,
    [TEST_ENV.runId]: runId,
    [TEST_ENV.serviceBuild]: serviceBuild,
    [TEST_ENV.openApiDocument]: openApiDocument,
  });
}

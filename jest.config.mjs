// @ts-check
/**
 * Jest runs the compiled sources and specs (`npm run build:test` writes them to dist-test/ as
 * CommonJS; on Node 24 Jest loads NestJS 12's ES modules through require(esm)). The e2e specs that
 * run the service as a process run the same build. `unit` needs no database; `contract`,
 * `integration` and `e2e` share one PostgreSQL and a migrated template, and each file gets a copy
 * (docs/development.md describes the tiers).
 */

/** A test that hangs fails after this instead of holding the run until CI's limit. */
const testTimeout = Number(process.env.TEST_TIMEOUT_MS ?? 300_000);

/**
 * `npm run compat:dust-latest` runs the specs against another copy of Dust's client: its folder.
 * @type {Record<string, string>}
 */
const dustClient = process.env.DUST_CLIENT_DIR ? { '^@dust-tt/client$': process.env.DUST_CLIENT_DIR } : {};

/** @type {import('jest').Config} */
const shared = {
  rootDir: import.meta.dirname,
  testEnvironment: 'node',
  // Already compiled: nothing to transform.
  transform: {},
};

/**
 * One PostgreSQL for the run and a database per file: Jest runs a global setup once however many
 * projects name it.
 * @type {import('jest').Config}
 */
const withDatabase = {
  globalSetup: '<rootDir>/dist-test/test/support/global-setup.js',
  globalTeardown: '<rootDir>/dist-test/test/support/global-teardown.js',
};

/** @type {import('jest').Config} */
export default {
  maxWorkers: 2,
  testTimeout,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      roots: [
        '<rootDir>/dist-test/src',
        '<rootDir>/dist-test/test/architecture',
        '<rootDir>/dist-test/test/bench',
      ],
      testMatch: ['**/*.spec.js'],
    },
    {
      ...shared,
      ...withDatabase,
      displayName: 'contract',
      roots: ['<rootDir>/dist-test/test/contract'],
      testMatch: ['**/*.contract-spec.js'],
    },
    {
      ...shared,
      ...withDatabase,
      displayName: 'integration',
      roots: ['<rootDir>/dist-test/test/integration'],
      testMatch: ['**/*.integration-spec.js'],
    },
    {
      ...shared,
      ...withDatabase,
      displayName: 'e2e',
      roots: ['<rootDir>/dist-test/test'],
      testMatch: ['**/*.e2e-spec.js'],
      moduleNameMapper: dustClient,
    },
  ],
};

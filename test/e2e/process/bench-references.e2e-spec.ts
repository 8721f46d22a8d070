import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { expect } from 'test/support/expect';
import { ServiceProcess, startService, tempDataDir } from 'test/support/service-process';
import { createTestDatabase } from 'test/support/test-app';
import { TEST_ENV } from 'test/support/test-database';

/** The service as the bench's scenarios take it: where it answers, its database and its CLI. */
interface BenchService {
  baseUrl: string;
  databaseEnv: Record<string, string>;
  cli: string;
}

/** A scenario of bench/scenarios/ (plain JavaScript); those with a bare reference say what both sides answer. */
interface BenchScenario {
  name: string;
  env?: Record<string, string>;
  bodies?: (context: { service: BenchService }) => Promise<{ reference: string; service: string }>;
}

const SCENARIOS = join(process.cwd(), 'bench', 'scenarios');
/** The bench's own modules, loaded as the bench loads them (CommonJS, outside the build). */
const loadBenchModule = createRequire(__filename);
const scenarios = readdirSync(SCENARIOS)
  .filter((file) => file.endsWith('.js'))
  .map((file) => loadBenchModule(join(SCENARIOS, file)) as BenchScenario);
const withReference = scenarios.filter((scenario) => scenario.bodies !== undefined);

/**
 * The bench measures the service against bare references that must answer the same bytes; a shape
 * change that breaks one fails here rather than at the next bench run. No timing is asserted.
 */
describe('the bench references', () => {
  let database: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let service: ServiceProcess;
  let bench: BenchService;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await tempDataDir();
    const databaseEnv = { DATABASE_URL: database.url, DATA_DIR: dataDir };
    service = await startService({
      ...databaseEnv,
      ...Object.assign({}, ...scenarios.map((scenario) => scenario.env ?? {})),
    });
    bench = {
      baseUrl: service.baseUrl,
      databaseEnv,
      cli: join(process.env[TEST_ENV.serviceBuild]!, 'src', 'cli.js'),
    };
  });

  afterAll(async () => {
    await service?.stop();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('are those of the reads the bench compares', () => {
    expect(withReference.map((scenario) => scenario.name).sort()).toEqual([
      'conversation-get',
      'healthz',
      'messages-list',
    ]);
  });

  for (const scenario of withReference) {
    it(`${scenario.name}: the reference answers the service's exact body`, async () => {
      const { reference, service: measured } = await scenario.bodies!({ service: bench });
      expect(measured).toMatch(/^\{"/);
      expect(reference).toBe(measured);
    });
  }
});

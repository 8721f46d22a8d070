import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { CONFIGURATIONS } from 'src/app.config';
import { AppModule } from 'src/app.module';
import { NEST_APP_OPTIONS, configureApp, createHttpAdapter } from 'src/app.setup';
import { Configuration } from 'src/platform/config/configuration';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { randomBase62 } from 'src/platform/ids/sid';
import type { Tracing } from 'src/platform/observability/tracing';
import { setApiDocument } from 'test/support/api-document';
import { TEST_ENV, withDatabase } from 'test/support/test-database';
import { DataSource } from 'typeorm';

export interface TestApp {
  app: NestExpressApplication;
  http: Server;
  dataSource: DataSource;
  document: OpenAPIObject;
  /** The platform's configuration (database, data directory, address); a context's is `app.get(FilesConfig)`. */
  config: PlatformConfig;
  /**
   * Listens on a loopback port (for clients that need a real socket, such as SSE); returns the base
   * URL. Listens once: later calls return the same URL.
   */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /**
   * Configuration variables, as an operator sets them (`{ SSE_POLL_MS: 60_000 }`); the others keep
   * their defaults, except that tests reach their tool servers on 127.0.0.1, so
   * MCP_ALLOW_PRIVATE_NETWORKS is true, and RUN_DRAIN_MS is 0, unless a spec says otherwise. The
   * process's own environment is not read.
   */
  env?: Record<string, string | number | boolean>;
  /** Extra controllers, for behaviour no production route can trigger (an unexpected exception). */
  controllers?: Type[];
  /** Share a database created by an earlier createTestApp (two instances on one database). */
  databaseUrl?: string;
  /** Each request in a server span of this tracing, as main.ts does when tracing is on. */
  tracing?: Tracing;
  /** Providers replaced by test doubles of the same port (a controlled clock). */
  overrides?: { provide: Type | (abstract new (...args: never[]) => unknown); useValue: unknown }[];
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run e2e tests through their Jest config (global setup).`);
  return value;
}

/** A fresh database copied from the migrated template; dropped again by `close()`. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = requiredEnv(TEST_ENV.adminUrl);
  const template = requiredEnv(TEST_ENV.templateDatabase);
  const name = `wa_test_${requiredEnv(TEST_ENV.runId)}_${randomBase62(8).toLowerCase()}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(
      `CREATE DATABASE ${admin.escapeIdentifier(name)} TEMPLATE ${admin.escapeIdentifier(template)}`,
    );
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** The variables as the environment holds them; a name no configuration declares is a mistake of the spec. */
function variables(env: Record<string, string | number | boolean>): Record<string, string> {
  const declared = new Set(CONFIGURATIONS.flatMap((token) => token.schema.variables.map(({ name }) => name)));
  const unknown = Object.keys(env).filter((name) => !declared.has(name));
  if (unknown.length > 0) throw new Error(`No configuration declares ${unknown.join(', ')}.`);
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, String(value)]));
}

/** The service's modules as main.ts composes them, with their configuration, database and data directory. */
async function compileAppModule(options: TestAppOptions) {
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  // Its own data directory (file contents, URL signing secret), never the working copy's.
  const dataDir = await mkdtemp(join(tmpdir(), 'wa-app-'));
  const configuration = Configuration.read(CONFIGURATIONS, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    MCP_ALLOW_PRIVATE_NETWORKS: 'true',
    // A closing app fails the runs still under way at once, unless a spec gives them time to finish.
    RUN_DRAIN_MS: '0',
    DATA_DIR: dataDir,
    ...variables(options.env ?? {}),
    DATABASE_URL: database.url,
  });
  let builder = Test.createTestingModule({
    imports: [AppModule.forRoot(configuration, database.url)],
    controllers: options.controllers ?? [],
  });
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  return {
    moduleRef,
    configuration,
    /** Drops the database (when it is the module's own) and the data directory, once the module is closed. */
    release: async () => {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestModule {
  /** A provider of the service's modules: an application service, a repository, a worker. */
  get<T>(type: Type<T> | (abstract new (...args: never[]) => T)): T;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * The service's modules as main.ts composes them, initialised (workers started) but with no HTTP
 * server: the medium tier drives application services on the real repositories and database.
 */
export async function createTestModule(
  options: Pick<TestAppOptions, 'env' | 'databaseUrl' | 'overrides'> = {},
): Promise<TestModule> {
  const { moduleRef, release } = await compileAppModule(options);
  await moduleRef.init();
  return {
    get: (type) => moduleRef.get(type),
    dataSource: moduleRef.get(DataSource),
    close: async () => {
      await moduleRef.close();
      await release();
    },
  };
}

/** The app as main.ts builds it (same module, same configureApp), on its own database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { moduleRef, configuration, release } = await compileAppModule(options);
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), NEST_APP_OPTIONS);
  const document = configureApp(app, options.tracing ?? null);
  setApiDocument(document);
  await app.init();
  let listening: Promise<string> | undefined;
  return {
    app,
    http: app.getHttpServer(),
    dataSource: app.get(DataSource),
    document,
    config: configuration.get(PlatformConfig),
    listen: () =>
      (listening ??= app
        .listen(0, '127.0.0.1')
        .then(async () => (await app.getUrl()).replace('[::1]', '127.0.0.1'))),
    close: async () => {
      await app.close();
      await release();
    },
  };
}

import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { AppModule } from 'src/app.module';
import { NEST_APP_OPTIONS, configureApp, createHttpAdapter } from 'src/app.setup';
import {
  AppConfig,
  AppConfigValues,
  SseSettings,
  ToolSettings,
  loadAppConfig,
} from 'src/platform/config/app-config';
import { randomBase62 } from 'src/platform/ids/sid';
import { setApiDocument } from 'test/support/api-document';
import { TEST_ENV, withDatabase } from 'test/support/test-database';
import { DataSource } from 'typeorm';

export interface TestApp {
  app: NestExpressApplication;
  http: Server;
  dataSource: DataSource;
  document: OpenAPIObject;
  config: AppConfig;
  /**
   * Listens on a loopback port (for clients that need a real socket, such as SSE); returns the base
   * URL. Listens once: later calls return the same URL.
   */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** `sse` is merged over the defaults, so a spec sets only the settings it is about. */
  config?: Partial<Omit<AppConfigValues, 'sse' | 'tools'>> & {
    sse?: Partial<SseSettings>;
    /** Merged over the defaults; tests reach their tool servers on 127.0.0.1, so private networks are allowed unless a spec says otherwise. */
    tools?: Partial<ToolSettings>;
  };
  /** Extra controllers, for behaviour no production route can trigger (an unexpected exception). */
  controllers?: Type[];
  /** Share a database created by an earlier createTestApp (two instances on one database). */
  databaseUrl?: string;
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

/** The app as main.ts builds it (same module, same configureApp), on its own database. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => {} }
    : await createTestDatabase();
  // Its own data directory (file contents, URL signing secret), never the working copy's.
  const dataDir = await mkdtemp(join(tmpdir(), 'wa-app-'));
  const defaults = loadAppConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const config = new AppConfig({
    ...defaults,
    dataDir,
    ...options.config,
    sse: { ...defaults.sse, ...options.config?.sse },
    tools: { ...defaults.tools, allowPrivateNetworks: true, ...options.config?.tools },
    databaseUrl: database.url,
  });
  let builder = Test.createTestingModule({
    imports: [AppModule.forRoot(config, database.url)],
    controllers: options.controllers ?? [],
  });
  for (const override of options.overrides ?? []) {
    builder = builder.overrideProvider(override.provide).useValue(override.useValue);
  }
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>(createHttpAdapter(), NEST_APP_OPTIONS);
  const document = configureApp(app);
  setApiDocument(document);
  await app.init();
  let listening: Promise<string> | undefined;
  return {
    app,
    http: app.getHttpServer(),
    dataSource: app.get(DataSource),
    document,
    config,
    listen: () =>
      (listening ??= app
        .listen(0, '127.0.0.1')
        .then(async () => (await app.getUrl()).replace('[::1]', '127.0.0.1'))),
    close: async () => {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

import 'reflect-metadata';
// First: tracing patches http as it loads (when OTEL_EXPORTER_OTLP_ENDPOINT is set).
import { tracing } from 'src/platform/observability/tracing-bootstrap';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import { AppModule } from 'src/app.module';
import { NEST_APP_OPTIONS, configureApp, createHttpAdapter } from 'src/app.setup';
import { CONFIGURATIONS } from 'src/app.config';
import { readConfigurationOrExit } from 'src/platform/config/configuration';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { resolveDatabase } from 'src/platform/database/database-resolver';
import type { DatabaseHandle } from 'src/platform/database/embedded-postgres';
import { migrateWithLock } from 'src/platform/database/migrate';
import { HealthConfig } from 'src/platform/health/health.config';
import { ProcessReadiness } from 'src/platform/health/process-readiness';
import { exitOnUnsupportedNode } from 'src/platform/process/node-version';
import { exitOnStartFailure } from 'src/platform/process/start-failure';
import { DataSource } from 'typeorm';

async function main(): Promise<void> {
  exitOnUnsupportedNode();
  const configuration = readConfigurationOrExit(CONFIGURATIONS);
  const config = configuration.get(PlatformConfig);
  const log = pino({ level: config.logLevel }).child({ context: 'Bootstrap' });
  const database = await resolveDatabase(config, (message) => log.debug(message));
  let app: NestExpressApplication | undefined;
  try {
    app = await NestFactory.create<NestExpressApplication>(
      AppModule.forRoot(configuration, database.address),
      createHttpAdapter(),
      NEST_APP_OPTIONS,
    );
    configureApp(app, tracing);
    const applied = await migrateWithLock(app.get(DataSource));
    if (applied.length > 0) log.info({ migrations: applied }, 'Applied migrations');
    // Every interface (IPv4 and IPv6), as a service in a container must.
    await app.listen(config.port);
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.release();
    throw error;
  }
  log.info(
    {
      port: config.port,
      node: process.version,
      url: config.publicBaseUrl,
      docs: `${config.publicBaseUrl}/api/docs`,
      database: config.databaseUrl ? 'DATABASE_URL' : `embedded (${config.dataDir})`,
    },
    `Workspace Agent API on Node ${process.version} listening on port ${config.port}; API docs at ${config.publicBaseUrl}/api/docs`,
  );
  stopOnSignals(app, database, configuration.get(HealthConfig).shutdownGraceMs, log);
}

/**
 * SIGTERM (a supervisor's stop): unready at once, serving on for `graceMs` so that a load balancer
 * stops sending requests, then stop accepting, drain in-flight requests, runs and streams, and let go
 * of the database (an embedded server stops with the last process that uses it). SIGINT (Ctrl-C)
 * skips the grace: nothing balances a terminal's load.
 */
function stopOnSignals(
  app: NestExpressApplication,
  database: DatabaseHandle,
  graceMs: number,
  log: pino.Logger,
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, 'Second signal: exiting without draining');
      process.exit(1);
    }
    stopping = true;
    app.get(ProcessReadiness).stop();
    const grace = signal === 'SIGTERM' ? graceMs : 0;
    log.info({ signal, graceMs: grace }, 'Shutting down');
    setTimeout(() => void drainAndExit(app, database, log), grace);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * Closes the application, then lets go of the database, then sends the spans still buffered. A
 * collector that cannot take them loses them, said in a warning: that is no failure of the stop.
 */
async function drainAndExit(
  app: NestExpressApplication,
  database: DatabaseHandle,
  log: pino.Logger,
): Promise<void> {
  // New connections are refused from here; the runs under way drain while the listener is closed.
  app.getHttpServer().close();
  await app
    .close()
    .catch((error: unknown) => log.error({ err: error }, 'Error while closing the application'));
  let code = 0;
  try {
    await database.release();
  } catch (error) {
    log.error({ err: error }, 'Error while stopping the database');
    code = 1;
  }
  try {
    await tracing?.shutdown();
  } catch (error) {
    log.warn({ err: error }, 'The spans still buffered could not be sent to the collector; they are lost');
  }
  process.exit(code);
}

main().catch(exitOnStartFailure);

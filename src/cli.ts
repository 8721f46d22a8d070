import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDataSourceOptions } from 'src/app.data-source';
import { AppModule } from 'src/app.module';
import { NEST_APP_OPTIONS, buildOpenApiDocument, createHttpAdapter } from 'src/app.setup';
import { ApiKeysService, WorkspacesService } from 'src/modules/identity/identity.api';
import { CONFIGURATIONS } from 'src/app.config';
import { readConfigurationOrExit } from 'src/platform/config/configuration';
import { PlatformConfig } from 'src/platform/config/platform.config';
import { resolveDatabase } from 'src/platform/database/database-resolver';
import { generateMigration } from 'src/platform/database/generate-migration';
import { CHUNK_SEARCH_SCHEMA } from 'src/modules/data-sources/infrastructure/data-sources.entities';
import { migrateWithLock } from 'src/platform/database/migrate';
import { DomainError } from 'src/platform/errors/domain-error';
import { exitOnUnsupportedNode } from 'src/platform/process/node-version';
import { DataSource } from 'typeorm';

/** A failure the operator caused (bad arguments, unknown names): printed without a stack. */
class CliUsageError extends Error {}

interface CommandContext {
  args: string[];
  dataSource(): Promise<DataSource>;
  app(): Promise<INestApplicationContext>;
  /** The HTTP application, routes declared but not listening. */
  httpApp(): Promise<NestExpressApplication>;
}

type Command = (context: CommandContext) => Promise<unknown>;

function options<T extends Record<string, { type: 'string' }>>(
  args: string[],
  spec: T,
  required: (keyof T & string)[],
): Record<keyof T, string | undefined> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args, options: spec, strict: true }).values;
  } catch (error) {
    throw new CliUsageError(error instanceof Error ? error.message : String(error));
  }
  const missing = required.filter((name) => typeof values[name] !== 'string' || values[name] === '');
  if (missing.length > 0)
    throw new CliUsageError(`Missing option(s): ${missing.map((m) => `--${m}`).join(', ')}.`);
  return values as Record<keyof T, string | undefined>;
}

const str = { type: 'string' } as const;

const COMMANDS: Record<string, Command> = {
  bootstrap: async ({ args, app }) => {
    const o = options(args, { workspace: str, email: str, name: str }, ['workspace', 'email', 'name']);
    const result = await (
      await app()
    )
      .get(WorkspacesService)
      .bootstrap({ workspaceName: o.workspace!, email: o.email!, fullName: o.name! });
    return {
      workspace: { sId: result.workspace.sId, name: result.workspace.name },
      user: { sId: result.user.sId, email: result.user.email },
      apiKey: { id: result.apiKey.key.sId, secret: result.apiKey.secret, scopes: result.apiKey.key.scopes },
    };
  },
  'members add': async ({ args, app }) => {
    const o = options(args, { workspace: str, email: str, name: str, role: str }, [
      'workspace',
      'email',
      'name',
      'role',
    ]);
    const workspaces = (await app()).get(WorkspacesService);
    const workspace = await workspaces.resolveWorkspace(o.workspace!);
    const { user, membership } = await workspaces.addMember(workspace.id, {
      email: o.email!,
      fullName: o.name!,
      role: o.role!,
    });
    return {
      workspace: { sId: workspace.sId },
      user: { sId: user.sId, email: user.email, fullName: user.fullName },
      role: membership.role,
    };
  },
  'keys create': async ({ args, app }) => {
    const o = options(args, { workspace: str, email: str, name: str, scopes: str }, ['workspace', 'email']);
    const context = await app();
    const workspaces = context.get(WorkspacesService);
    const workspace = await workspaces.resolveWorkspace(o.workspace!);
    const member = await workspaces.findMemberByEmail(workspace, o.email!);
    const scopes = o.scopes?.split(',').map((scope) => scope.trim());
    const { key, secret } = await context
      .get(ApiKeysService)
      .issue(workspace.id, member.user.id, o.name ?? 'cli', scopes);
    return { apiKey: { id: key.sId, name: key.name, secret, scopes: key.scopes, userId: member.user.sId } };
  },
  'keys revoke': async ({ args, app }) => {
    const o = options(args, { workspace: str, id: str }, ['workspace', 'id']);
    const context = await app();
    const workspace = await context.get(WorkspacesService).resolveWorkspace(o.workspace!);
    const key = await context.get(ApiKeysService).revokeAsOperator(workspace.id, o.id!);
    return { apiKey: { id: key.sId, revokedAt: key.revokedAt?.toISOString() ?? null } };
  },
  /** The OpenAPI document the service serves at /api/openapi.json, without starting it. */
  openapi: async ({ httpApp }) => buildOpenApiDocument(await httpApp()),
  'migration run': async ({ dataSource }) => ({ applied: await migrateWithLock(await dataSource()) }),
  'migration revert': async ({ dataSource }) => {
    await (await dataSource()).undoLastMigration({ transaction: 'each' });
    return { reverted: true };
  },
  'migration generate': async ({ args, dataSource }) => {
    const name = args[0];
    if (!name) throw new CliUsageError('Usage: migration generate <PascalCaseName>');
    const source = await dataSource();
    await migrateWithLock(source);
    const file = await generateMigration(source, name, resolve(__dirname, '..', '..', 'migrations'), [
      CHUNK_SEARCH_SCHEMA,
    ]);
    return { file };
  },
};

function findCommand(argv: string[]): { command: Command; args: string[] } {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(' ');
    if (Object.hasOwn(COMMANDS, name)) return { command: COMMANDS[name], args: argv.slice(words) };
  }
  throw new CliUsageError(
    `Unknown command "${argv.join(' ')}". Commands: ${Object.keys(COMMANDS).join(', ')}.`,
  );
}

async function main(argv: string[]): Promise<void> {
  exitOnUnsupportedNode();
  const { command, args } = findCommand(argv);
  const configuration = readConfigurationOrExit(CONFIGURATIONS);
  const database = await resolveDatabase(configuration.get(PlatformConfig), () => undefined);
  const opened: { close(): Promise<unknown> }[] = [];
  const context: CommandContext = {
    args,
    dataSource: async () => {
      const dataSource = await new DataSource(createDataSourceOptions(database.address)).initialize();
      opened.push({ close: () => dataSource.destroy() });
      return dataSource;
    },
    app: async () => {
      const app = await NestFactory.createApplicationContext(
        AppModule.forRoot(configuration, database.address, 'stderr'),
        {
          logger: false,
        },
      );
      opened.push(app);
      await migrateWithLock(app.get(DataSource));
      return app;
    },
    httpApp: async () => {
      const app = await NestFactory.create<NestExpressApplication>(
        AppModule.forRoot(configuration, database.address, 'stderr'),
        createHttpAdapter(),
        { ...NEST_APP_OPTIONS, logger: false },
      );
      opened.push(app);
      return app;
    },
  };
  try {
    const result = await command(context);
    // process.exit() follows: a large answer to a pipe must be flushed first.
    await new Promise<void>((resolve, reject) =>
      process.stdout.write(`${JSON.stringify(result)}\n`, (error) => (error ? reject(error) : resolve())),
    );
  } finally {
    for (const resource of opened.reverse()) await resource.close().catch(() => undefined);
    await database.release();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const known = error instanceof CliUsageError || error instanceof DomainError;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${known ? message : `Unexpected error: ${message}`}\n`);
    process.exit(1);
  },
);

import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDataSourceOptions } from 'src/app.data-source';
import { loadAppConfigOrExit } from 'src/platform/config/app-config';
import { resolveDatabase } from 'src/platform/database/database-resolver';
import { generateMigration } from 'src/platform/database/generate-migration';
import { migrateWithLock } from 'src/platform/database/migrate';
import { DataSource } from 'typeorm';

/** A failure the operator caused (bad arguments, unknown names): printed without a stack. */
export class CliUsageError extends Error {}

type Command = (args: string[], dataSource: DataSource) => Promise<unknown>;

const COMMANDS: Record<string, Command> = {
  'migration run': async (_args, dataSource) => ({ applied: await migrateWithLock(dataSource) }),
  'migration revert': async (_args, dataSource) => {
    await dataSource.undoLastMigration({ transaction: 'each' });
    return { reverted: true };
  },
  'migration generate': async (args, dataSource) => {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    const name = positionals[0];
    if (!name) throw new CliUsageError('Usage: migration generate <PascalCaseName>');
    await migrateWithLock(dataSource);
    const file = await generateMigration(dataSource, name, resolve(__dirname, '..', '..', 'migrations'));
    return { file };
  },
};

async function main(argv: string[]): Promise<void> {
  const key = argv.slice(0, 2).join(' ');
  const command = COMMANDS[key];
  if (!command) {
    throw new CliUsageError(
      `Unknown command "${argv.join(' ')}". Commands: ${Object.keys(COMMANDS).join(', ')}.`,
    );
  }
  const config = loadAppConfigOrExit();
  const database = await resolveDatabase(config, () => undefined);
  const dataSource = new DataSource(createDataSourceOptions(database.url));
  try {
    await dataSource.initialize();
    const result = await command(argv.slice(2), dataSource);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await dataSource.destroy().catch(() => undefined);
    await database.release();
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);

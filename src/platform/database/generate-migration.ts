import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

interface SqlStatement {
  query: string;
  parameters?: unknown[];
}

function render(statements: SqlStatement[]): string {
  return statements
    .map(({ query, parameters }) => {
      const sql = '`' + query.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
      const params = parameters && parameters.length > 0 ? `, ${JSON.stringify(parameters)}` : '';
      return `    await queryRunner.query(${sql}${params});`;
    })
    .join('\n');
}

/**
 * Writes `migrations/<timestamp>-<Name>.ts` with the statements that bring the database to the
 * entities' schema (the same diff TypeORM's own generator computes). Returns the file, or null
 * when the schema is already up to date.
 */
export async function generateMigration(
  dataSource: DataSource,
  name: string,
  directory: string,
): Promise<string | null> {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    throw new Error(`Migration name must be PascalCase letters and digits, got "${name}".`);
  }
  const sql = await dataSource.driver.createSchemaBuilder().log();
  if (sql.upQueries.length === 0) return null;
  const timestamp = Date.now();
  const className = `${name}${timestamp}`;
  const file = join(directory, `${timestamp}-${name}.ts`);
  const source = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${render(sql.upQueries)}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${render([...sql.downQueries].reverse())}
  }
}
`;
  await writeFile(file, source, { flag: 'wx' });
  await writeMigrationIndex(directory);
  return file;
}

const MIGRATION_FILE = /^(\d+)-([A-Z][A-Za-z0-9]*)\.ts$/;

/**
 * Rewrites `migrations/index.ts`, the list the DataSource runs: classes rather than a file glob,
 * so loading migrations needs no dynamic import (which a test runner's module sandbox refuses).
 */
export async function writeMigrationIndex(directory: string): Promise<void> {
  const migrations = (await readdir(directory))
    .flatMap((name) => {
      const match = MIGRATION_FILE.exec(name);
      return match ? [{ module: name.slice(0, -3), className: `${match[2]}${match[1]}` }] : [];
    })
    .sort((x, y) => x.module.localeCompare(y.module));
  const source = `import type { MigrationInterface } from 'typeorm';
${migrations.map(({ module, className }) => `import { ${className} } from './${module}';`).join('\n')}

/** Every migration, oldest first; written by \`migration generate\`. */
export const MIGRATIONS: (new () => MigrationInterface)[] = [
${migrations.map(({ className }) => `  ${className},`).join('\n')}
];
`;
  await writeFile(join(directory, 'index.ts'), source);
}

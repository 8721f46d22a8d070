import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';

interface SqlStatement {
  query: string;
  parameters?: unknown[];
}

/**
 * Schema a migration made by hand because TypeORM cannot describe it (a column of a type its
 * driver lacks, a generated column over one): the generator leaves it alone instead of dropping it.
 */
export interface HandMadeSchema {
  table: string;
  columns: readonly string[];
  indexes: readonly string[];
}

/** Whether a generated statement touches hand-made schema: it names one of its columns on its table, or one of its indexes. */
function touchesHandMade(
  { query, parameters = [] }: SqlStatement,
  handMade: readonly HandMadeSchema[],
): boolean {
  return handMade.some(({ table, columns, indexes }) => {
    if (indexes.some((index) => query.includes(`"${index}"`))) return true;
    const onTable = query.includes(`"${table}"`) || parameters.includes(table);
    return onTable && columns.some((column) => query.includes(`"${column}"`) || parameters.includes(column));
  });
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
  handMade: readonly HandMadeSchema[] = [],
): Promise<string | null> {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) {
    throw new Error(`Migration name must be PascalCase letters and digits, got "${name}".`);
  }
  const log = await dataSource.driver.createSchemaBuilder().log();
  const sql = {
    upQueries: log.upQueries.filter((statement) => !touchesHandMade(statement, handMade)),
    downQueries: log.downQueries.filter((statement) => !touchesHandMade(statement, handMade)),
  };
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

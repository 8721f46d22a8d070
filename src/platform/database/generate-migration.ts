import { writeFile } from 'node:fs/promises';
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
  return file;
}

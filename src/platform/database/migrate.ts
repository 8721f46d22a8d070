import type { DataSource } from 'typeorm';

/** Arbitrary constant shared by every process of this service: one migrator at a time. */
const MIGRATION_LOCK_KEY = 7_146_335_901;

/** Runs pending migrations while holding a session advisory lock, so processes starting together migrate once. */
export async function migrateWithLock(dataSource: DataSource): Promise<string[]> {
  const lockHolder = dataSource.createQueryRunner();
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await lockHolder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockHolder.release();
  }
}

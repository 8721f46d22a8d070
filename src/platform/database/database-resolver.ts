import type { PlatformConfig } from 'src/platform/config/platform.config';
import { FixedDatabaseAddress } from 'src/platform/database/database-address';
import { DatabaseHandle, startOrAttachEmbeddedPostgres } from 'src/platform/database/embedded-postgres';

/** `DATABASE_URL` when set; otherwise the embedded PostgreSQL under `DATA_DIR` (started or attached). */
export async function resolveDatabase(
  config: PlatformConfig,
  log: (message: string) => void,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    return {
      address: new FixedDatabaseAddress(config.databaseUrl),
      url: config.databaseUrl,
      startedHere: false,
      release: async () => {},
    };
  }
  return startOrAttachEmbeddedPostgres({ dataDir: config.dataDir, log });
}

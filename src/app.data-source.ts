import { AGENTS_ENTITIES } from 'src/modules/agents/infrastructure/agents.entities';
import { CONVERSATIONS_ENTITIES } from 'src/modules/conversations/infrastructure/conversations.entities';
import { RateLimitCounterEntity } from 'src/platform/auth/rate-limit/rate-limit-counter.entity';
import { ConversationEventEntity } from 'src/platform/events/conversation-event.entity';
import { DATA_SOURCE_ENTITIES } from 'src/modules/data-sources/infrastructure/data-sources.entities';
import { FEEDBACK_ENTITIES } from 'src/modules/feedback/infrastructure/feedback.entities';
import { FILES_ENTITIES } from 'src/modules/files/infrastructure/files.entities';
import { RUNTIME_ENTITIES } from 'src/modules/runtime/infrastructure/runtime.entities';
import { USAGE_ENTITIES } from 'src/modules/usage/infrastructure/usage.entities';
import { TRIGGERS_ENTITIES } from 'src/modules/triggers/infrastructure/triggers.entities';
import { WakeUpEntity } from 'src/modules/wakeups/infrastructure/wakeups.entities';
import { IDENTITY_ENTITIES } from 'src/modules/identity/infrastructure/identity.entities';
import { DatabaseAddress, addressOf, clientDialing } from 'src/platform/database/database-address';
import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../migrations/index';

/** Every TypeORM entity of the service. */
export const ENTITIES: DataSourceOptions['entities'] = [
  ...IDENTITY_ENTITIES,
  ...AGENTS_ENTITIES,
  ...CONVERSATIONS_ENTITIES,
  ...RUNTIME_ENTITIES,
  ...USAGE_ENTITIES,
  ConversationEventEntity,
  ...DATA_SOURCE_ENTITIES,
  ...FILES_ENTITIES,
  WakeUpEntity,
  RateLimitCounterEntity,
  ...FEEDBACK_ENTITIES,
  ...TRIGGERS_ENTITIES,
];

/**
 * The one DataSource definition, used by the app, the CLI and the migration scripts.
 * Migrations are the classes listed in `migrations/index.ts`.
 */
export function createDataSourceOptions(database: string | DatabaseAddress): DataSourceOptions {
  const address = addressOf(database);
  return {
    type: 'postgres',
    url: address.url(),
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    // A burst waits for a connection rather than failing; a database that is down fails fast anyway.
    // Each new connection dials where the database is then (an embedded server that came back elsewhere).
    extra: { max: 20, connectionTimeoutMillis: 30_000, Client: clientDialing(address) },
  };
}

import { afterAll, beforeAll, beforeEach, describe } from '@jest/globals';
import { createDataSourceOptions } from 'src/app.data-source';
import type { ContentFragmentRepository } from 'src/modules/conversations/application/ports/content-fragment.repository';
import type { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import type { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { TypeormContentFragmentRepository } from 'src/modules/conversations/infrastructure/typeorm-content-fragment.repository';
import { TypeormConversationRepository } from 'src/modules/conversations/infrastructure/typeorm-conversation.repository';
import { TypeormMessageRepository } from 'src/modules/conversations/infrastructure/typeorm-message.repository';
import type { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { TypeormAgentRunRepository } from 'src/modules/runtime/infrastructure/typeorm-agent-run.repository';
import { TypeormRunUsageTotals } from 'src/modules/runtime/infrastructure/typeorm-run-usage-totals';
import type { RunUsageRecords } from 'src/modules/usage/application/ports/run-usage-records';
import type { WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';
import { TypeormWakeUpRepository } from 'src/modules/wakeups/infrastructure/typeorm-wakeup.repository';
import { SystemClock } from 'src/platform/clock/clock';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import type { UnitOfWork } from 'src/platform/database/unit-of-work';
import type { ConversationEventLog } from 'src/platform/events/conversation-event';
import { TypeormConversationEventLog } from 'src/platform/events/typeorm-conversation-event-log';
import { generateSId } from 'src/platform/ids/sid';
import { Metrics } from 'src/platform/observability/metrics';
import { InMemoryAgentRunRepository } from 'test/fakes/agent-run-repository';
import { InMemoryContentFragmentRepository } from 'test/fakes/content-fragment-repository';
import { InMemoryConversationEventLog } from 'test/fakes/conversation-event-log';
import { InMemoryConversationRepository } from 'test/fakes/conversation-repository';
import { InMemoryMessageRepository } from 'test/fakes/message-repository';
import { InMemoryRunUsageRecords } from 'test/fakes/run-usage-records';
import { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';
import { InMemoryWakeUpRepository } from 'test/fakes/wakeup-repository';
import { createTestDatabase } from 'test/support/test-app';
import { DataSource } from 'typeorm';

/**
 * The ports a contract covers, all from one store: the in-memory fakes sharing one unit of work,
 * or the TypeORM repositories on a PostgreSQL database. What a case needs to exist first (a
 * workspace, a member, a space: rows other contexts own) it asks of the store, which creates it
 * as that store must (a row the foreign keys point to, or just a new id).
 */
export interface Stores {
  unitOfWork: UnitOfWork;
  conversations: ConversationRepository;
  messages: MessageRepository;
  fragments: ContentFragmentRepository;
  events: ConversationEventLog;
  wakeUps: WakeUpRepository;
  runs: AgentRunRepository;
  usage: RunUsageRecords;
  /** A new workspace: each case works in workspaces of its own, so that cases on one database do not meet. */
  workspace(): Promise<number>;
  /** A new member of the workspace. */
  user(workspaceId: number): Promise<number>;
  /** A new regular space of the workspace. */
  space(workspaceId: number): Promise<{ id: number; sId: string }>;
}

interface Store {
  name: string;
  open(): Promise<void>;
  /** The stores for one case. */
  fresh(): Stores;
  close(): Promise<void>;
}

function inMemory(): Store {
  let lastId = 0;
  const spaces = new Map<number, string>();
  return {
    name: 'in-memory fakes',
    open: async () => {},
    close: async () => {},
    fresh: () => {
      const unitOfWork = new InMemoryUnitOfWork();
      const messages = new InMemoryMessageRepository({ unitOfWork });
      const conversations = new InMemoryConversationRepository({
        unitOfWork,
        messages,
        spaceSIdOf: (_workspaceId, spaceId) => spaces.get(spaceId) ?? null,
      });
      const runs = new InMemoryAgentRunRepository({ unitOfWork, clock: new SystemClock() });
      return {
        unitOfWork,
        conversations,
        messages,
        fragments: new InMemoryContentFragmentRepository({ unitOfWork }),
        events: new InMemoryConversationEventLog({ unitOfWork }),
        wakeUps: new InMemoryWakeUpRepository({
          unitOfWork,
          conversationSIdOf: (workspaceId, id) => conversations.row(workspaceId, id)?.sId,
        }),
        runs,
        usage: new InMemoryRunUsageRecords(runs),
        workspace: async () => ++lastId,
        user: async () => ++lastId,
        space: async () => {
          const space = { id: ++lastId, sId: generateSId() };
          spaces.set(space.id, space.sId);
          return space;
        },
      };
    },
  };
}

function postgres(): Store {
  let database: { url: string; drop(): Promise<void> };
  let dataSource: DataSource;
  const insert = async (sql: string, parameters: unknown[]): Promise<number> => {
    const [row] = await dataSource.query<{ id: number }[]>(`${sql} RETURNING id`, parameters);
    return row.id;
  };
  return {
    name: 'TypeORM on PostgreSQL',
    open: async () => {
      database = await createTestDatabase();
      dataSource = await new DataSource(createDataSourceOptions(database.url)).initialize();
    },
    close: async () => {
      await dataSource?.destroy();
      await database?.drop();
    },
    fresh: () => {
      const unitOfWork = new TypeormUnitOfWork(dataSource);
      return {
        unitOfWork,
        conversations: new TypeormConversationRepository(unitOfWork),
        messages: new TypeormMessageRepository(unitOfWork),
        fragments: new TypeormContentFragmentRepository(unitOfWork),
        events: new TypeormConversationEventLog(unitOfWork, dataSource, new Metrics()),
        wakeUps: new TypeormWakeUpRepository(unitOfWork),
        runs: new TypeormAgentRunRepository(unitOfWork),
        usage: new TypeormRunUsageTotals(unitOfWork),
        workspace: () =>
          insert('INSERT INTO workspaces (s_id, name) VALUES ($1, $2)', [generateSId(), 'Contract']),
        user: async (workspaceId) => {
          const sId = generateSId();
          const userId = await insert(
            `INSERT INTO users (s_id, email, username, first_name, last_name, full_name, provider)
             VALUES ($1, $2, $1, 'Ada', 'Lovelace', 'Ada Lovelace', 'api')`,
            [sId, `${sId.toLowerCase()}@example.com`],
          );
          await insert(`INSERT INTO memberships (workspace_id, user_id, role) VALUES ($1, $2, 'user')`, [
            workspaceId,
            userId,
          ]);
          return userId;
        },
        space: async (workspaceId) => {
          const sId = generateSId();
          const id = await insert(
            `INSERT INTO spaces (s_id, workspace_id, name, kind) VALUES ($1, $2, $1, 'regular')`,
            [sId, workspaceId],
          );
          return { id, sId };
        },
      };
    },
  };
}

/** A new conversation of the workspace, with nothing set that a case does not ask for. */
export function newConversation(stores: Stores, workspaceId: number) {
  return stores.conversations.create({
    sId: generateSId(),
    workspaceId,
    title: null,
    depth: 0,
    spaceId: null,
    requestedSpaceIds: [],
    forkedFrom: null,
  });
}

/**
 * Declares the contract's cases once for each store: what callers of the port rely on, which the
 * fake must do as the database does. `stores()` gives the current case's.
 */
export function describeContract(port: string, cases: (stores: () => Stores) => void): void {
  describe.each([inMemory(), postgres()])(`${port}: $name`, (store) => {
    let current: Stores;
    beforeAll(() => store.open());
    afterAll(() => store.close());
    beforeEach(() => {
      current = store.fresh();
    });
    cases(() => current);
  });
}

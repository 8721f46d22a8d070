import type { Clock } from 'src/platform/clock/clock';
import {
  ConversationEventLog,
  EventFilter,
  EventPosition,
  LoggedEvent,
  NewConversationEvent,
  StoredConversationEvent,
} from 'src/platform/events/conversation-event';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

interface EventRow<Event extends LoggedEvent> {
  id: number;
  workspaceId: number;
  conversationId: number;
  event: Event;
  createdAt: Date;
}

/**
 * The conversations' event log in memory: appended in the current transaction (gone if it rolls
 * back), ids from one sequence, payloads stored as JSON as the database stores them.
 */
export class InMemoryConversationEventLog<
  Event extends LoggedEvent = LoggedEvent,
> extends ConversationEventLog<Event> {
  private readonly rows: InMemoryTable<EventRow<Event>>;

  constructor(private readonly options: { unitOfWork?: InMemoryUnitOfWork; clock?: Clock } = {}) {
    super();
    this.rows = new InMemoryTable(options.unitOfWork);
  }

  async append(workspaceId: number, conversationId: number, event: Event): Promise<bigint> {
    const row = this.rows.insert({
      id: this.rows.nextId(),
      workspaceId,
      conversationId,
      event: JSON.parse(JSON.stringify(event)) as Event,
      createdAt: this.options.clock?.now() ?? new Date(),
    });
    return BigInt(row.id);
  }

  async appendMany(entries: readonly NewConversationEvent<Event>[]): Promise<bigint[]> {
    const ids: bigint[] = [];
    for (const { workspaceId, conversationId, event } of entries)
      ids.push(await this.append(workspaceId, conversationId, event));
    return ids;
  }

  /** One process, no concurrent transactions: nothing to order. */
  async lockForAppend(): Promise<void> {}

  async readAfter(
    conversationId: number,
    afterId: bigint,
    limit: number,
    filter?: EventFilter<Event['type']>,
  ): Promise<StoredConversationEvent<Event>[]> {
    return this.rows
      .select(
        (row) =>
          row.conversationId === conversationId &&
          BigInt(row.id) > afterId &&
          (!filter ||
            (filter.types.includes(row.event.type) &&
              (filter.messageId === undefined ||
                ('messageId' in row.event && row.event.messageId === filter.messageId)))),
      )
      .slice(0, limit)
      .map((row) => ({ id: BigInt(row.id), conversationId, event: row.event }));
  }

  async readAfterMany(
    positions: readonly EventPosition[],
    limit: number,
    filter?: EventFilter<Event['type']>,
  ): Promise<StoredConversationEvent<Event>[][]> {
    return Promise.all(
      positions.map(({ conversationId, afterId }) => this.readAfter(conversationId, afterId, limit, filter)),
    );
  }

  async lastId(conversationId: number): Promise<bigint> {
    return BigInt(this.rows.select((row) => row.conversationId === conversationId).at(-1)?.id ?? 0);
  }

  async lastIdOlderThan(conversationId: number, ageMs: number): Promise<bigint> {
    const before = (this.options.clock?.now() ?? new Date()).getTime() - ageMs;
    const older = this.rows.select(
      (row) => row.conversationId === conversationId && row.createdAt.getTime() < before,
    );
    return BigInt(older.at(-1)?.id ?? 0);
  }

  /** The events of a conversation, oldest first: what its stream would replay. */
  eventsOf(conversationId: number): Event[] {
    return this.rows.select((row) => row.conversationId === conversationId).map((row) => row.event);
  }

  /** The events of a conversation of one type, oldest first. */
  eventsOfType<T extends Event['type']>(conversationId: number, type: T): Extract<Event, { type: T }>[] {
    return this.eventsOf(conversationId).filter(
      (event): event is Extract<Event, { type: T }> => event.type === type,
    );
  }
}

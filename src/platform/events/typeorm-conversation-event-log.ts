import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  LoggedEvent,
  ConversationEventLog,
  EventFilter,
  EventPosition,
  NewConversationEvent,
  StoredConversationEvent,
} from 'src/platform/events/conversation-event';
import { Counter, Metrics } from 'src/platform/observability/metrics';
import { inSpan } from 'src/platform/observability/spans';
import { DataSource } from 'typeorm';

/** The one channel of the doorbell: its payload names the conversation and the event id, nothing more. */
export const CONVERSATION_EVENTS_CHANNEL = 'conversation_events';
/** First key of the two-key advisory locks that order a conversation's appends. */
const EVENT_LOCK_CLASS = 5_017;

function sortedUnique(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

@Injectable()
export class TypeormConversationEventLog extends ConversationEventLog {
  private readonly appends: Counter<'type'>;

  constructor(
    private readonly db: TypeormUnitOfWork,
    private readonly dataSource: DataSource,
    metrics: Metrics,
  ) {
    super();
    this.appends = metrics.counter(
      'conversation_event_appends_total',
      'Events appended to the conversation event log, by type.',
      ['type'],
    );
  }

  append(workspaceId: number, conversationId: number, event: LoggedEvent): Promise<bigint> {
    return inSpan('event append', { 'event.type': event.type }, () =>
      this.appendNow(workspaceId, conversationId, event),
    );
  }

  private async appendNow(workspaceId: number, conversationId: number, event: LoggedEvent): Promise<bigint> {
    return this.db.run(async () => {
      // Ids come from one sequence but transactions commit in any order: holding a per-conversation
      // lock from the insert to the commit makes ids commit in order, so a reader never skips one.
      // The lock, the insert and the NOTIFY are one statement; PostgreSQL delivers the notification
      // when (and only if) the transaction commits.
      const [row] = await this.db.manager().query<{ id: string }[]>(
        `WITH locked AS (SELECT pg_advisory_xact_lock($1::int, $3::int)),
              appended AS (
                INSERT INTO conversation_events (workspace_id, conversation_id, type, payload)
                SELECT $2::int, $3::int, $4::text, $5::jsonb FROM locked
                RETURNING id)
         SELECT id::text AS id,
                pg_notify($6::text, json_build_object('conversationId', $3::int, 'id', id::text)::text)
         FROM appended`,
        [
          EVENT_LOCK_CLASS,
          workspaceId,
          conversationId,
          event.type,
          JSON.stringify(event),
          CONVERSATION_EVENTS_CHANNEL,
        ],
      );
      // Counted once committed: an append rolled back with its transaction never happened.
      this.db.afterCommit(() => this.appends.inc({ type: event.type }));
      return BigInt(row.id);
    });
  }

  appendMany(entries: readonly NewConversationEvent[]): Promise<bigint[]> {
    if (entries.length === 0) return Promise.resolve([]);
    // The types too: an answer's outcome (`agent_message_done`) is appended in such a statement.
    const types = [...new Set(entries.map(({ event }) => event.type))].join(',');
    return inSpan('event append', { 'event.count': entries.length, 'event.types': types }, () =>
      this.appendManyNow(entries),
    );
  }

  private async appendManyNow(entries: readonly NewConversationEvent[]): Promise<bigint[]> {
    return this.db.run(async () => {
      // As append: the locks (in one order), the insert in the order given (ids are drawn row by
      // row in that order) and one NOTIFY per conversation, naming its last id, in one statement.
      const rows = await this.db.manager().query<{ id: string }[]>(
        `WITH locked AS (SELECT count(pg_advisory_xact_lock($1::int, c)) AS n FROM unnest($2::int[]) AS c),
              appended AS (
                INSERT INTO conversation_events (workspace_id, conversation_id, type, payload)
                SELECT e.workspace_id, e.conversation_id, e.type, e.payload
                FROM locked, unnest($3::int[], $4::int[], $5::text[], $6::jsonb[])
                       WITH ORDINALITY AS e(workspace_id, conversation_id, type, payload, ord)
                ORDER BY e.ord
                RETURNING id, conversation_id),
              notified AS (
                SELECT pg_notify($7::text, json_build_object('conversationId', conversation_id, 'id', max(id)::text)::text)
                FROM appended GROUP BY conversation_id)
         SELECT a.id::text AS id FROM appended a, (SELECT count(*) FROM notified) n ORDER BY a.id`,
        [
          EVENT_LOCK_CLASS,
          sortedUnique(entries.map((entry) => entry.conversationId)),
          entries.map((entry) => entry.workspaceId),
          entries.map((entry) => entry.conversationId),
          entries.map((entry) => entry.event.type),
          entries.map((entry) => JSON.stringify(entry.event)),
          CONVERSATION_EVENTS_CHANNEL,
        ],
      );
      this.db.afterCommit(() => {
        for (const entry of entries) this.appends.inc({ type: entry.event.type });
      });
      return rows.map((row) => BigInt(row.id));
    });
  }

  async lockForAppend(...conversationIds: number[]): Promise<void> {
    // One order for every transaction that takes several: two of them never wait for each other.
    await this.db
      .manager()
      .query('SELECT count(pg_advisory_xact_lock($1::int, c)) FROM unnest($2::int[]) AS c', [
        EVENT_LOCK_CLASS,
        sortedUnique(conversationIds),
      ]);
  }

  async readAfter(
    conversationId: number,
    afterId: bigint,
    limit: number,
    filter?: EventFilter,
  ): Promise<StoredConversationEvent[]> {
    // Ordered by the bigint column itself: an output alias of the same name would take precedence
    // in ORDER BY, and a text alias sorts 13 before 2. pg hands bigints over as strings.
    const rows = await this.dataSource.query<{ id: string; payload: LoggedEvent }[]>(
      filter
        ? `SELECT e.id, e.payload FROM conversation_events e
           WHERE e.conversation_id = $1 AND e.id > $2::bigint AND e.type = ANY($4::text[])
             AND ($5::text IS NULL OR e.payload->>'messageId' = $5)
           ORDER BY e.id LIMIT $3`
        : `SELECT e.id, e.payload FROM conversation_events e
           WHERE e.conversation_id = $1 AND e.id > $2::bigint
           ORDER BY e.id LIMIT $3`,
      filter
        ? [conversationId, afterId.toString(), limit, filter.types, filter.messageId ?? null]
        : [conversationId, afterId.toString(), limit],
    );
    return rows.map((row) => ({ id: BigInt(row.id), conversationId, event: row.payload }));
  }

  async readAfterMany(
    positions: readonly EventPosition[],
    limit: number,
    filter?: EventFilter,
  ): Promise<StoredConversationEvent[][]> {
    if (positions.length === 0) return [];
    // Each position is its own index range scan (LATERAL ... LIMIT), as readAfter's; the rows come
    // back grouped by position, each group in id order.
    const rows = await this.dataSource.query<{ ord: string; id: string; payload: LoggedEvent }[]>(
      `SELECT p.ord, e.id, e.payload
       FROM unnest($1::int[], $2::bigint[]) WITH ORDINALITY AS p(conversation_id, after_id, ord)
       CROSS JOIN LATERAL (
         SELECT e.id, e.payload FROM conversation_events e
         WHERE e.conversation_id = p.conversation_id AND e.id > p.after_id
           ${filter ? "AND e.type = ANY($4::text[]) AND ($5::text IS NULL OR e.payload->>'messageId' = $5)" : ''}
         ORDER BY e.id LIMIT $3) e
       ORDER BY p.ord, e.id`,
      [
        positions.map((position) => position.conversationId),
        positions.map((position) => position.afterId.toString()),
        limit,
        ...(filter ? [filter.types, filter.messageId ?? null] : []),
      ],
    );
    const read: StoredConversationEvent[][] = positions.map(() => []);
    for (const row of rows) {
      const index = Number(row.ord) - 1;
      read[index].push({
        id: BigInt(row.id),
        conversationId: positions[index].conversationId,
        event: row.payload,
      });
    }
    return read;
  }

  async lastId(conversationId: number): Promise<bigint> {
    const rows = await this.dataSource.query<{ id: string | null }[]>(
      'SELECT max(id) AS id FROM conversation_events WHERE conversation_id = $1',
      [conversationId],
    );
    return BigInt(rows[0]?.id ?? 0);
  }

  async lastIdOlderThan(conversationId: number, ageMs: number): Promise<bigint> {
    // Walks back from the newest event: only the window's events are read, however long the log.
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT e.id FROM conversation_events e
       WHERE e.conversation_id = $1 AND e.created_at < now() - make_interval(secs => $2::double precision / 1000)
       ORDER BY e.id DESC LIMIT 1`,
      [conversationId, ageMs],
    );
    return BigInt(rows[0]?.id ?? 0);
  }
}

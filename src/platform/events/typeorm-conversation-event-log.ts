import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ConversationEvent,
  ConversationEventLog,
  StoredConversationEvent,
} from 'src/platform/events/conversation-event';
import { DataSource } from 'typeorm';

/** The one channel of the doorbell: its payload names the conversation and the event id, nothing more. */
export const CONVERSATION_EVENTS_CHANNEL = 'conversation_events';
/** First key of the two-key advisory locks that order a conversation's appends. */
const EVENT_LOCK_CLASS = 5_017;

@Injectable()
export class TypeormConversationEventLog extends ConversationEventLog {
  constructor(
    private readonly db: TypeormUnitOfWork,
    private readonly dataSource: DataSource,
  ) {
    super();
  }

  async append(workspaceId: number, conversationId: number, event: ConversationEvent): Promise<string> {
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
      return row.id;
    });
  }

  async readAfter(
    conversationId: number,
    afterId: string,
    limit: number,
  ): Promise<StoredConversationEvent[]> {
    const rows = await this.dataSource.query<{ id: string; payload: ConversationEvent }[]>(
      'SELECT id::text AS id, payload FROM conversation_events WHERE conversation_id = $1 AND id > $2 ORDER BY id LIMIT $3',
      [conversationId, afterId, limit],
    );
    return rows.map((row) => ({ id: row.id, conversationId, event: row.payload }));
  }

  async lastId(conversationId: number): Promise<string> {
    const rows = await this.dataSource.query<{ id: string | null }[]>(
      'SELECT max(id)::text AS id FROM conversation_events WHERE conversation_id = $1',
      [conversationId],
    );
    return rows[0]?.id ?? '0';
  }
}

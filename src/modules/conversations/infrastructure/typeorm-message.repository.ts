import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  AgentMessageOutcome,
  MessagePage,
  MessageRepository,
  NewAgentMessage,
  NewUserMessage,
} from 'src/modules/conversations/application/ports/message.repository';
import type { AgentMessage, Message, Reaction, UserMessage } from 'src/modules/conversations/domain/message';
import {
  MessageEntity,
  ReactionEntity,
} from 'src/modules/conversations/infrastructure/conversations.entities';
import { In } from 'typeorm';

/** The columns a message is built from; a raw row selected with `MESSAGE_COLUMNS` has them. */
type MessageRow = Omit<MessageEntity, 'conversation' | 'user' | 'runnerId' | 'runnerHeartbeatAt'>;

// Two literals rather than a shared base spread into each: on Node 20, `{ ...base, more }` cost
// microseconds an object, a tenth of a message page's time.
function toMessage(e: MessageRow): Message {
  if (e.type === 'agent_message') {
    return {
      id: e.id,
      sId: e.sId,
      workspaceId: e.workspaceId,
      conversationId: e.conversationId,
      rank: e.rank,
      version: e.version,
      createdAt: e.createdAt,
      content: e.content,
      type: 'agent_message',
      parentMessageId: e.parentMessageId ?? 0,
      agentSId: e.agentSId ?? '',
      agentVersion: e.agentVersion ?? 0,
      status: e.status ?? 'created',
      error: e.error,
      completedAt: e.completedAt,
    };
  }
  return {
    id: e.id,
    sId: e.sId,
    workspaceId: e.workspaceId,
    conversationId: e.conversationId,
    rank: e.rank,
    version: e.version,
    createdAt: e.createdAt,
    content: e.content,
    type: 'user_message',
    userId: e.userId ?? 0,
    mentions: e.mentions ?? [],
    context: e.context ?? {
      username: '',
      timezone: 'UTC',
      origin: 'api',
      fullName: null,
      email: null,
      profilePictureUrl: null,
    },
  };
}

/** First key of the two-key advisory locks that serialise the reactions to one message. */
const REACTIONS_LOCK_CLASS = 5_018;

/** Rows holding the latest version of each rank. */
const LATEST = `m.version = (SELECT max(v.version) FROM messages v WHERE v.conversation_id = m.conversation_id AND v.rank = m.rank)`;

/** `MessageRow`'s columns of `messages m`, named as the entity's properties. */
const MESSAGE_COLUMNS = `m.id, m.s_id AS "sId", m.workspace_id AS "workspaceId", m.conversation_id AS "conversationId",
  m.rank, m.version, m.type, m.content, m.user_id AS "userId", m.mentions, m.context,
  m.parent_message_id AS "parentMessageId", m.agent_s_id AS "agentSId", m.agent_version AS "agentVersion",
  m.status, m.error, m.completed_at AS "completedAt", m.created_at AS "createdAt"`;

/**
 * A page of the latest versions after a rank, with each message's reactions, built once: a text
 * built on each call would be copied again by every comparison pg makes with its prepared statement's.
 */
const LATEST_PAGE = `SELECT ${MESSAGE_COLUMNS},
         (SELECT json_agg(json_build_object('userId', r.user_id, 'emoji', r.emoji) ORDER BY r.created_at)
          FROM message_reactions r WHERE r.workspace_id = $1 AND r.message_id = m.id) AS reactions
  FROM messages m
  WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.rank > $3 AND ${LATEST}
  ORDER BY m.rank LIMIT $4`;

@Injectable()
export class TypeormMessageRepository extends MessageRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get messages() {
    return this.db.repository(MessageEntity);
  }

  async insertUserMessage(message: NewUserMessage): Promise<UserMessage> {
    const saved = await this.messages.save(this.messages.create({ ...message, parentMessageId: null }));
    return toMessage(saved) as UserMessage;
  }

  async insertUserMessages(messages: NewUserMessage[]): Promise<UserMessage[]> {
    if (messages.length === 0) return [];
    const values = messages.map((message) => ({ ...message, parentMessageId: null }));
    // The generated columns (id, created_at) come back in the order of the rows.
    const { generatedMaps } = await this.messages.insert(values);
    return values.map(
      (value, i) => toMessage({ ...value, ...generatedMaps[i] } as MessageEntity) as UserMessage,
    );
  }

  async insertAgentMessage(message: NewAgentMessage): Promise<AgentMessage> {
    const { agentSId, agentVersion, ...rest } = message;
    const saved = await this.messages.save(
      this.messages.create({
        ...rest,
        agentSId,
        agentVersion,
        userId: null,
        mentions: null,
        context: null,
      }),
    );
    return toMessage(saved) as AgentMessage;
  }

  async findBySId(workspaceId: number, conversationId: number, sId: string): Promise<Message | null> {
    const found = await this.messages.findOneBy({ workspaceId, conversationId, sId });
    return found && toMessage(found);
  }

  async findByIds(workspaceId: number, ids: number[]): Promise<Message[]> {
    if (ids.length === 0) return [];
    return (await this.messages.findBy({ workspaceId, id: In(ids) })).map(toMessage);
  }

  async findLatestAt(workspaceId: number, conversationId: number, rank: number): Promise<Message | null> {
    const [row] = await this.db.manager().query<MessageRow[]>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m
       WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.rank = $3
       ORDER BY m.version DESC LIMIT 1`,
      [workspaceId, conversationId, rank],
    );
    return row ? toMessage(row) : null;
  }

  async answersTo(workspaceId: number, conversationId: number, rank: number): Promise<AgentMessage[]> {
    // Any version of the parent: answers written before edits answered again still answer an older one.
    const rows = await this.db.manager().query<MessageRow[]>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m
       WHERE m.workspace_id = $1 AND m.conversation_id = $2 AND m.type = 'agent_message' AND ${LATEST}
         AND m.parent_message_id IN (SELECT p.id FROM messages p
                                     WHERE p.workspace_id = $1 AND p.conversation_id = $2 AND p.rank = $3)
       ORDER BY m.rank`,
      [workspaceId, conversationId, rank],
    );
    return rows.map((row) => toMessage(row) as AgentMessage);
  }

  async listRunning(workspaceId: number, conversationId: number): Promise<AgentMessage[]> {
    const rows = await this.messages.find({
      where: { workspaceId, conversationId, type: 'agent_message', status: 'created' },
      order: { rank: 'ASC' },
    });
    return rows.map((row) => toMessage(row) as AgentMessage);
  }

  async agentsOf(workspaceId: number, conversationId: number): Promise<string[]> {
    const rows = await this.db.manager().query<{ agentSId: string }[]>(
      `SELECT agent_s_id AS "agentSId" FROM messages
       WHERE workspace_id = $1 AND conversation_id = $2 AND type = 'agent_message'
       GROUP BY agent_s_id ORDER BY min(rank), agent_s_id`,
      [workspaceId, conversationId],
    );
    return rows.map((row) => row.agentSId);
  }

  async latestVersionAt(workspaceId: number, conversationId: number, rank: number): Promise<number> {
    const rows = await this.db
      .manager()
      .query<{ version: number }[]>(
        'SELECT max(version) AS version FROM messages WHERE workspace_id = $1 AND conversation_id = $2 AND rank = $3',
        [workspaceId, conversationId, rank],
      );
    return rows[0]?.version ?? -1;
  }

  async listLatest(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<MessagePage> {
    // Raw SQL, prepared: every read of a conversation's messages runs it, where the query builder's
    // cost shows; the reactions come in the same round trip.
    const rows = await this.db.hotRead<
      MessageRow & { reactions: { userId: number; emoji: string }[] | null }
    >('messages-latest-page', LATEST_PAGE, [workspaceId, conversationId, afterRank, limit]);
    return {
      messages: rows.map(toMessage),
      reactions: rows.flatMap((row) =>
        (row.reactions ?? []).map(({ userId, emoji }) => ({ messageId: row.id, userId, emoji })),
      ),
    };
  }

  async listLatestUpTo(workspaceId: number, conversationId: number, maxRank: number): Promise<Message[]> {
    const rows = await this.messages
      .createQueryBuilder('m')
      .where('m.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND m.rank <= :maxRank', {
        workspaceId,
        conversationId,
        maxRank,
      })
      .andWhere(LATEST)
      .orderBy('m.rank', 'ASC')
      .getMany();
    return rows.map(toMessage);
  }

  async appendContent(
    entries: readonly { workspaceId: number; messageId: number; text: string }[],
  ): Promise<Set<number>> {
    if (entries.length === 0) return new Set();
    const [rows] = await this.db.manager().query<[{ id: number }[], number]>(
      `UPDATE messages m SET content = m.content || v.text
       FROM unnest($1::int[], $2::int[], $3::text[]) AS v(id, workspace_id, text)
       WHERE m.id = v.id AND m.workspace_id = v.workspace_id AND m.status = 'created'
       RETURNING m.id`,
      [
        entries.map((entry) => entry.messageId),
        entries.map((entry) => entry.workspaceId),
        entries.map((entry) => entry.text),
      ],
    );
    return new Set(rows.map((row) => row.id));
  }

  async complete(workspaceId: number, messageId: number, outcome: AgentMessageOutcome): Promise<boolean> {
    const [, affected] = await this.db.manager().query<[unknown[], number]>(
      `UPDATE messages SET status = $3, content = $4, error = $5, completed_at = now()
       WHERE id = $1 AND workspace_id = $2 AND status = 'created'`,
      [
        messageId,
        workspaceId,
        outcome.status,
        outcome.content,
        outcome.error && JSON.stringify(outcome.error),
      ],
    );
    return affected === 1;
  }

  async reactionsOf(workspaceId: number, messageIds: number[]): Promise<Reaction[]> {
    if (messageIds.length === 0) return [];
    // Prepared: every message rendered on its own (posted, edited, reacted to) reads its reactions here.
    return this.db.hotRead<Reaction>(
      'message-reactions',
      `SELECT message_id AS "messageId", user_id AS "userId", emoji FROM message_reactions
       WHERE workspace_id = $1 AND message_id = ANY($2) ORDER BY created_at`,
      [workspaceId, messageIds],
    );
  }

  async lockReactions(messageId: number): Promise<void> {
    // Not the message's row lock, which a running agent's writes take every 100 ms.
    await this.db
      .manager()
      .query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [REACTIONS_LOCK_CLASS, messageId]);
  }

  async emojisOn(workspaceId: number, messageId: number): Promise<string[]> {
    const rows = await this.db
      .repository(ReactionEntity)
      .createQueryBuilder('r')
      .select('DISTINCT r.emoji', 'emoji')
      .where('r.workspace_id = :workspaceId AND r.message_id = :messageId', { workspaceId, messageId })
      .getRawMany<{ emoji: string }>();
    return rows.map((row) => row.emoji);
  }

  async addReaction(workspaceId: number, reaction: Reaction): Promise<void> {
    await this.db
      .repository(ReactionEntity)
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, ...reaction })
      .orIgnore()
      .execute();
  }

  async removeReaction(workspaceId: number, reaction: Reaction): Promise<void> {
    await this.db.repository(ReactionEntity).delete({ workspaceId, ...reaction });
  }
}

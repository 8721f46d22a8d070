import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  AgentMessageOutcome,
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

function toMessage(e: MessageEntity): Message {
  const base = {
    id: e.id,
    sId: e.sId,
    workspaceId: e.workspaceId,
    conversationId: e.conversationId,
    rank: e.rank,
    version: e.version,
    createdAt: e.createdAt,
    content: e.content,
  };
  if (e.type === 'agent_message') {
    return {
      ...base,
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
    ...base,
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

/** Rows holding the latest version of each rank. */
/** First key of the two-key advisory locks that serialise the reactions to one message. */
const REACTIONS_LOCK_CLASS = 5_018;

const LATEST = `m.version = (SELECT max(v.version) FROM messages v WHERE v.conversation_id = m.conversation_id AND v.rank = m.rank)`;

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
  ): Promise<Message[]> {
    const rows = await this.messages
      .createQueryBuilder('m')
      .where(
        'm.workspace_id = :workspaceId AND m.conversation_id = :conversationId AND m.rank > :afterRank',
        {
          workspaceId,
          conversationId,
          afterRank,
        },
      )
      .andWhere(LATEST)
      .orderBy('m.rank', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(toMessage);
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

  async saveProgress(workspaceId: number, messageId: number, content: string): Promise<boolean> {
    const [, affected] = await this.db
      .manager()
      .query<[unknown[], number]>(
        "UPDATE messages SET content = $3 WHERE id = $1 AND workspace_id = $2 AND status = 'created'",
        [messageId, workspaceId, content],
      );
    return affected === 1;
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
    const rows = await this.db.repository(ReactionEntity).find({
      where: { workspaceId, messageId: In(messageIds) },
      order: { createdAt: 'ASC' },
    });
    return rows.map(({ messageId, userId, emoji }) => ({ messageId, userId, emoji }));
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

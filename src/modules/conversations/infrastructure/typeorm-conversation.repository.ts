import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ConversationRepository,
  NewConversation,
} from 'src/modules/conversations/application/ports/conversation.repository';
import type { Conversation, ForkOrigin, Participation } from 'src/modules/conversations/domain/conversation';
import {
  ConversationEntity,
  ParticipantEntity,
} from 'src/modules/conversations/infrastructure/conversations.entities';
import { In } from 'typeorm';

const toConversation = (e: ConversationEntity): Conversation => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  title: e.title,
  depth: e.depth,
  spaceId: e.spaceId,
  triggerId: e.triggerId,
  metadata: e.metadata,
  requestedSpaceIds: e.requestedSpaceIds,
  hasError: e.hasError,
  forkedFrom:
    e.parentConversationId !== null && e.sourceMessageId !== null && e.branchedAt && e.forkedByUserId !== null
      ? {
          parentConversationId: e.parentConversationId,
          sourceMessageId: e.sourceMessageId,
          branchedAt: e.branchedAt,
          forkedByUserId: e.forkedByUserId,
          fileCopyStatus: e.fileCopyStatus ?? 'done',
        }
      : null,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

@Injectable()
export class TypeormConversationRepository extends ConversationRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get conversations() {
    return this.db.repository(ConversationEntity);
  }

  private get participants() {
    return this.db.repository(ParticipantEntity);
  }

  async create(conversation: NewConversation): Promise<Conversation> {
    const { forkedFrom, ...rest } = conversation;
    const entity = this.conversations.create({
      ...rest,
      parentConversationId: forkedFrom?.parentConversationId ?? null,
      sourceMessageId: forkedFrom?.sourceMessageId ?? null,
      branchedAt: forkedFrom?.branchedAt ?? null,
      forkedByUserId: forkedFrom?.forkedByUserId ?? null,
      fileCopyStatus: forkedFrom?.fileCopyStatus ?? null,
    });
    return toConversation(await this.conversations.save(entity));
  }

  async find(workspaceId: number, sId: string): Promise<Conversation | null> {
    const found = await this.conversations.findOneBy({ workspaceId, sId });
    return found && toConversation(found);
  }

  async findByIds(workspaceId: number, ids: number[]): Promise<Conversation[]> {
    if (ids.length === 0) return [];
    return (await this.conversations.findBy({ workspaceId, id: In(ids) })).map(toConversation);
  }

  async findChildren(workspaceId: number, parentIds: number[]): Promise<Conversation[]> {
    if (parentIds.length === 0) return [];
    const rows = await this.conversations.find({
      where: { workspaceId, parentConversationId: In(parentIds) },
      order: { id: 'ASC' },
    });
    return rows.map(toConversation);
  }

  async listForUser(
    workspaceId: number,
    userId: number,
    beforeId: number | null,
    limit: number,
  ): Promise<Conversation[]> {
    const query = this.conversations
      .createQueryBuilder('c')
      .innerJoin(ParticipantEntity, 'p', 'p.conversation_id = c.id AND p.user_id = :userId', { userId })
      .where('c.workspace_id = :workspaceId', { workspaceId })
      .orderBy('c.id', 'DESC')
      .limit(limit);
    if (beforeId !== null) query.andWhere('c.id < :beforeId', { beforeId });
    return (await query.getMany()).map(toConversation);
  }

  async update(
    workspaceId: number,
    id: number,
    changes: { title?: string; requestedSpaceIds?: string[]; hasError?: boolean },
  ): Promise<Conversation> {
    await this.conversations
      .createQueryBuilder()
      .update()
      .set({ ...changes, updatedAt: () => 'now()' })
      .where('id = :id AND workspace_id = :workspaceId', { id, workspaceId })
      .execute();
    return toConversation(await this.conversations.findOneByOrFail({ workspaceId, id }));
  }

  async allocateRanks(workspaceId: number, id: number, count: number): Promise<number> {
    const [rows] = await this.db.manager().query<[{ first: number }[], number]>(
      `UPDATE conversations SET next_rank = next_rank + $3, updated_at = now()
       WHERE id = $1 AND workspace_id = $2
       RETURNING next_rank - $3 AS first`,
      [id, workspaceId, count],
    );
    return rows[0].first;
  }

  async setFileCopyStatus(
    workspaceId: number,
    id: number,
    status: ForkOrigin['fileCopyStatus'],
  ): Promise<void> {
    await this.conversations.update({ workspaceId, id }, { fileCopyStatus: status });
  }

  async participations(
    workspaceId: number,
    conversationIds: number[],
    userId: number,
  ): Promise<Map<number, Participation>> {
    if (conversationIds.length === 0) return new Map();
    const rows = await this.participants.findBy({ workspaceId, userId, conversationId: In(conversationIds) });
    return new Map(
      rows.map((row) => [
        row.conversationId,
        { userId: row.userId, lastReadAt: row.lastReadAt, actionRequired: row.actionRequired },
      ]),
    );
  }

  async join(workspaceId: number, conversationId: number, userId: number): Promise<void> {
    await this.participants
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, conversationId, userId, lastReadAt: null })
      .orIgnore()
      .execute();
  }

  async markRead(
    workspaceId: number,
    conversationId: number,
    userId: number,
    at: Date | null,
  ): Promise<void> {
    await this.join(workspaceId, conversationId, userId);
    await this.participants.update({ workspaceId, conversationId, userId }, { lastReadAt: at });
  }
}

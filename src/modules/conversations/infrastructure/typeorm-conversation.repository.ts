import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ConversationRead,
  ConversationRepository,
  ParticipantAction,
  RankReservation,
} from 'src/modules/conversations/application/ports/conversation.repository';
import type {
  AccessibleSpaces,
  Conversation,
  ForkOrigin,
  NewConversation,
  Participation,
} from 'src/modules/conversations/domain/conversation';
import {
  ConversationEntity,
  ParticipantEntity,
  toConversation,
} from 'src/modules/conversations/infrastructure/conversations.entities';
import { In } from 'typeorm';

@Injectable()
export class TypeormConversationRepository extends ConversationRepository {
  private columns: string | undefined;
  private readerText: string | undefined;

  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get conversations() {
    return this.db.repository(ConversationEntity);
  }

  /** The columns of `conversations c` under their property names, for raw queries that reuse toConversation. */
  private conversationColumns(): string {
    this.columns ??= this.db
      .manager()
      .connection.getMetadata(ConversationEntity)
      .columns.map((column) => `c.${column.databaseName} AS "${column.propertyName}"`)
      .join(', ');
    return this.columns;
  }

  /**
   * The read of one conversation for a reader, built once: a text built anew on each call would be
   * copied again by every comparison pg makes with its prepared statement's.
   */
  private readerSql(): string {
    this.readerText ??= `SELECT ${this.conversationColumns()},
              p.user_id IS NOT NULL AS participant, p.last_read_at AS "lastReadAt",
              coalesce(p.action_required, false) AS "actionRequired", s.s_id AS "spaceSId",
              EXISTS (SELECT 1 FROM conversations f WHERE f.workspace_id = c.workspace_id AND f.parent_conversation_id = c.id) AS "hasChildren"
       FROM conversations c
       LEFT JOIN conversation_participants p
         ON p.conversation_id = c.id AND p.user_id = $3 AND p.workspace_id = $1
       LEFT JOIN spaces s ON s.id = c.space_id AND s.workspace_id = $1
       WHERE c.workspace_id = $1 AND c.s_id = $2 AND c.deleted_at IS NULL`;
    return this.readerText;
  }

  private get participants() {
    return this.db.repository(ParticipantEntity);
  }

  async create(conversation: NewConversation): Promise<Conversation> {
    return toConversation(await this.conversations.save(this.toEntity(conversation)));
  }

  async createMany(conversations: NewConversation[]): Promise<Conversation[]> {
    if (conversations.length === 0) return [];
    const saved = await this.conversations.save(
      conversations.map((conversation) => this.toEntity(conversation)),
    );
    return saved.map(toConversation);
  }

  private toEntity(conversation: NewConversation): ConversationEntity {
    const { forkedFrom, ...rest } = conversation;
    return this.conversations.create({
      ...rest,
      parentConversationId: forkedFrom?.parentConversationId ?? null,
      sourceMessageId: forkedFrom?.sourceMessageId ?? null,
      branchedAt: forkedFrom?.branchedAt ?? null,
      forkedByUserId: forkedFrom?.forkedByUserId ?? null,
      fileCopyStatus: forkedFrom?.fileCopyStatus ?? null,
    });
  }

  async find(workspaceId: number, sId: string): Promise<Conversation | null> {
    const found = await this.conversations.findOneBy({ workspaceId, sId });
    return found && toConversation(found);
  }

  async findForReader(workspaceId: number, sId: string, userId: number): Promise<ConversationRead | null> {
    // Raw SQL, prepared: this runs on every conversation read, where the query builder's cost shows.
    const rows = await this.db.hotRead<
      ConversationEntity & {
        participant: boolean;
        lastReadAt: Date | null;
        actionRequired: boolean;
        spaceSId: string | null;
        hasChildren: boolean;
      }
    >('conversation-for-reader', this.readerSql(), [workspaceId, sId, userId]);
    const row = rows[0];
    if (!row) return null;
    return {
      conversation: toConversation(row),
      participation: row.participant
        ? { userId, lastReadAt: row.lastReadAt, actionRequired: row.actionRequired }
        : null,
      spaceSId: row.spaceSId,
      hasChildren: row.hasChildren,
    };
  }

  async findByIds(workspaceId: number, ids: number[]): Promise<Conversation[]> {
    if (ids.length === 0) return [];
    return (await this.conversations.findBy({ workspaceId, id: In(ids) })).map(toConversation);
  }

  async findByRefs(refs: { workspaceId: number; ids: number[] }[]): Promise<Conversation[]> {
    const where = refs.filter((ref) => ref.ids.length > 0);
    if (where.length === 0) return [];
    const found = await this.conversations.findBy(
      where.map(({ workspaceId, ids }) => ({ workspaceId, id: In(ids) })),
    );
    return found.map(toConversation);
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
    readable: AccessibleSpaces,
    beforeId: number | null,
    limit: number,
  ): Promise<Conversation[]> {
    // canReadWith, in SQL, so that a page is full of conversations the reader may open.
    const query = this.conversations
      .createQueryBuilder('c')
      .innerJoin(ParticipantEntity, 'p', 'p.conversation_id = c.id AND p.user_id = :userId', { userId })
      .where('c.workspace_id = :workspaceId', { workspaceId })
      .andWhere('c.requested_space_ids <@ CAST(:spaceSIds AS text[])', { spaceSIds: [...readable.sIds] })
      .andWhere('(c.space_id IS NULL OR c.space_id = ANY(CAST(:spaceIds AS int[])))', {
        spaceIds: [...readable.ids],
      })
      .orderBy('c.id', 'DESC')
      .limit(limit);
    if (beforeId !== null) query.andWhere('c.id < :beforeId', { beforeId });
    return (await query.getMany()).map(toConversation);
  }

  async update(
    workspaceId: number,
    id: number,
    changes: { title?: string; hasError?: boolean },
  ): Promise<Conversation> {
    await this.conversations
      .createQueryBuilder()
      .update()
      .set({ ...changes, updatedAt: () => 'now()' })
      .where('id = :id AND workspace_id = :workspaceId', { id, workspaceId })
      .execute();
    // A run may finish just after its conversation was deleted: the row is read all the same.
    return toConversation(
      await this.conversations.findOneOrFail({ where: { workspaceId, id }, withDeleted: true }),
    );
  }

  async addRequestedSpaces(workspaceId: number, id: number, spaceSIds: readonly string[]): Promise<boolean> {
    // A merge in the statement, under the row lock: spaces added by a concurrent post are kept.
    const [, affected] = await this.db.manager().query<[unknown[], number]>(
      `UPDATE conversations
          SET requested_space_ids = ARRAY(SELECT DISTINCT s FROM unnest(requested_space_ids || $3::text[]) s ORDER BY s)
        WHERE id = $1 AND workspace_id = $2 AND NOT requested_space_ids @> $3::text[]`,
      [id, workspaceId, spaceSIds],
    );
    return affected > 0;
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

  async reserveRanks(
    slots: RankReservation[],
  ): Promise<Map<number, { first: number; conversation: Conversation }>> {
    if (slots.length === 0) return new Map();
    const rows = slots.map((slot) => ({
      workspace_id: slot.workspaceId,
      id: slot.id,
      count: slot.count,
      requested_space_ids: slot.requestedSpaceIds,
      title: slot.title,
    }));
    const [updated] = await this.db.manager().query<[(ConversationEntity & { first: number })[], number]>(
      `UPDATE conversations c
          SET next_rank = c.next_rank + u.count,
              requested_space_ids = ARRAY(SELECT DISTINCT s FROM unnest(c.requested_space_ids || u.requested_space_ids) s ORDER BY s),
              title = COALESCE(u.title, c.title), updated_at = now()
         FROM jsonb_to_recordset($1::jsonb)
              AS u(workspace_id int, id int, count int, requested_space_ids text[], title text)
        WHERE c.id = u.id AND c.workspace_id = u.workspace_id
       RETURNING ${this.conversationColumns()}, c.next_rank - u.count AS first`,
      [JSON.stringify(rows)],
    );
    return new Map(updated.map((row) => [row.id, { first: row.first, conversation: toConversation(row) }]));
  }

  async lockUnlessBusy(workspaceId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .manager()
      .query<{ id: number }[]>(
        'SELECT id FROM conversations WHERE workspace_id = $1 AND id = ANY($2) FOR NO KEY UPDATE SKIP LOCKED',
        [workspaceId, ids],
      );
    return rows.map((row) => row.id);
  }

  async softDelete(workspaceId: number, id: number): Promise<boolean> {
    const [, affected] = await this.db
      .manager()
      .query<[unknown[], number]>(
        'UPDATE conversations SET deleted_at = now() WHERE id = $1 AND workspace_id = $2 AND deleted_at IS NULL',
        [id, workspaceId],
      );
    return affected === 1;
  }

  async creatorId(workspaceId: number, id: number): Promise<number | null> {
    const first = await this.participants.findOne({
      where: { workspaceId, conversationId: id },
      order: { createdAt: 'ASC', userId: 'ASC' },
    });
    return first?.userId ?? null;
  }

  async listParticipants(
    workspaceId: number,
    id: number,
  ): Promise<{ userId: number; action: ParticipantAction }[]> {
    // Reactions do not make their authors participants: they are read as such here.
    return this.db.manager().query<{ userId: number; action: ParticipantAction }[]>(
      `WITH reactors AS (
         SELECT r.user_id, min(r.created_at) AS since FROM message_reactions r
         JOIN messages m ON m.id = r.message_id AND m.workspace_id = $1 AND m.conversation_id = $2
         WHERE r.workspace_id = $1 GROUP BY r.user_id
       ), people AS (
         SELECT user_id, min(since) AS since FROM (
           SELECT user_id, created_at AS since FROM conversation_participants
           WHERE workspace_id = $1 AND conversation_id = $2
           UNION ALL SELECT user_id, since FROM reactors
         ) x GROUP BY user_id
       )
       SELECT p.user_id AS "userId",
              CASE WHEN EXISTS (SELECT 1 FROM messages m WHERE m.workspace_id = $1 AND m.conversation_id = $2
                                  AND m.type = 'user_message' AND m.user_id = p.user_id) THEN 'posted'
                   WHEN EXISTS (SELECT 1 FROM reactors r WHERE r.user_id = p.user_id) THEN 'reacted'
                   ELSE 'subscribed' END AS action
       FROM people p ORDER BY p.since, p.user_id`,
      [workspaceId, id],
    );
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

  async markReadMany(
    reads: { workspaceId: number; conversationId: number; userId: number }[],
    at: Date,
  ): Promise<void> {
    if (reads.length === 0) return;
    // A participant row of another workspace is never touched: the update is scoped like markRead's.
    await this.db.manager().query(
      `INSERT INTO conversation_participants (workspace_id, conversation_id, user_id, last_read_at)
       SELECT DISTINCT r.workspace_id, r.conversation_id, r.user_id, $4::timestamptz
         FROM unnest($1::int[], $2::int[], $3::int[]) AS r(workspace_id, conversation_id, user_id)
       ON CONFLICT (conversation_id, user_id) DO UPDATE SET last_read_at = EXCLUDED.last_read_at
         WHERE conversation_participants.workspace_id = EXCLUDED.workspace_id`,
      [
        reads.map((read) => read.workspaceId),
        reads.map((read) => read.conversationId),
        reads.map((read) => read.userId),
        at,
      ],
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

  async setActionRequired(
    workspaceId: number,
    conversationId: number,
    userId: number,
    required: boolean,
  ): Promise<void> {
    await this.participants
      .createQueryBuilder()
      .insert()
      .values({ workspaceId, conversationId, userId, lastReadAt: null, actionRequired: required })
      .orUpdate(['action_required'], ['conversation_id', 'user_id'])
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

import type { Clock } from 'src/platform/clock/clock';
import {
  ConversationRead,
  ConversationRepository,
  ParticipantAction,
  RankReservation,
} from 'src/modules/conversations/application/ports/conversation.repository';
import {
  type AccessibleSpaces,
  type Conversation,
  type ForkOrigin,
  type NewConversation,
  type Participation,
  canReadWith,
} from 'src/modules/conversations/domain/conversation';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryMessageRepository } from 'test/fakes/message-repository';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

interface ConversationRow extends Conversation {
  nextRank: number;
  deletedAt: Date | null;
}

interface ParticipantRow extends Participation {
  id: number;
  workspaceId: number;
  conversationId: number;
  createdAt: Date;
}

export interface ConversationRepositoryOptions {
  unitOfWork?: InMemoryUnitOfWork;
  clock?: Clock;
  /** The messages and reactions participants are read from (who posted, who reacted). */
  messages?: InMemoryMessageRepository;
  /** The sId of a space of the workspace (the spaces table the real read joins). */
  spaceSIdOf?: (workspaceId: number, spaceId: number) => string | null;
}

/**
 * Conversations and their participants in memory, with the database's rules: sIds unique per
 * workspace, every read scoped by workspace, deleted conversations left out of every read but
 * those the real queries make on the raw table (ranks, locks, updates), participants once each.
 * `heldElsewhere` names conversations another transaction has locked.
 */
export class InMemoryConversationRepository extends ConversationRepository {
  private readonly conversations: InMemoryTable<ConversationRow>;
  private readonly participants: InMemoryTable<ParticipantRow>;
  /** Ids of conversations another transaction holds: `lockUnlessBusy` skips them. */
  readonly heldElsewhere = new Set<number>();

  constructor(private readonly options: ConversationRepositoryOptions = {}) {
    super();
    this.conversations = new InMemoryTable(options.unitOfWork);
    this.participants = new InMemoryTable(options.unitOfWork);
  }

  /** A stored conversation, deleted or not, with when it was deleted: what the table holds. */
  row(workspaceId: number, id: number): (Conversation & { deletedAt: Date | null }) | undefined {
    const [found] = this.conversations.select((c) => c.workspaceId === workspaceId && c.id === id);
    return found && { ...toConversation(found), deletedAt: found.deletedAt };
  }

  /** Every stored conversation of a workspace, deleted or not, in creation order. */
  allIn(workspaceId: number): Conversation[] {
    return this.conversations.select((c) => c.workspaceId === workspaceId).map(toConversation);
  }

  async createMany(conversations: NewConversation[]): Promise<Conversation[]> {
    const created: Conversation[] = [];
    for (const conversation of conversations) created.push(await this.create(conversation));
    return created;
  }

  async create(conversation: NewConversation): Promise<Conversation> {
    const id = this.conversations.nextId();
    if (
      this.conversations.select(
        (c) => c.workspaceId === conversation.workspaceId && c.sId === conversation.sId,
      ).length > 0
    ) {
      throw new Error(`duplicate key: conversation ${conversation.sId}`);
    }
    const now = this.now();
    const row = this.conversations.insert({
      ...conversation,
      id,
      triggerId: null,
      metadata: {},
      hasError: false,
      createdAt: now,
      updatedAt: now,
      nextRank: 0,
      deletedAt: null,
    });
    return toConversation(row);
  }

  async find(workspaceId: number, sId: string): Promise<Conversation | null> {
    const [found] = this.live((c) => c.workspaceId === workspaceId && c.sId === sId);
    return found ?? null;
  }

  async findForReader(workspaceId: number, sId: string, userId: number): Promise<ConversationRead | null> {
    const conversation = await this.find(workspaceId, sId);
    if (!conversation) return null;
    const participation = (await this.participations(workspaceId, [conversation.id], userId)).get(
      conversation.id,
    );
    // The real query counts forks deleted or not.
    const hasChildren =
      this.conversations.select(
        (c) => c.workspaceId === workspaceId && c.forkedFrom?.parentConversationId === conversation.id,
      ).length > 0;
    const spaceSId =
      conversation.spaceId === null
        ? null
        : (this.options.spaceSIdOf?.(workspaceId, conversation.spaceId) ?? null);
    return { conversation, participation: participation ?? null, spaceSId, hasChildren };
  }

  async findByIds(workspaceId: number, ids: number[]): Promise<Conversation[]> {
    return this.live((c) => c.workspaceId === workspaceId && ids.includes(c.id));
  }

  async findByRefs(refs: { workspaceId: number; ids: number[] }[]): Promise<Conversation[]> {
    return this.live((c) => refs.some((ref) => ref.workspaceId === c.workspaceId && ref.ids.includes(c.id)));
  }

  async findChildren(workspaceId: number, parentIds: number[]): Promise<Conversation[]> {
    return this.live(
      (c) =>
        c.workspaceId === workspaceId &&
        c.forkedFrom !== null &&
        parentIds.includes(c.forkedFrom.parentConversationId),
    );
  }

  async listForUser(
    workspaceId: number,
    userId: number,
    readable: AccessibleSpaces,
    beforeId: number | null,
    limit: number,
  ): Promise<Conversation[]> {
    const joined = new Set(
      this.participants
        .select((p) => p.workspaceId === workspaceId && p.userId === userId)
        .map((p) => p.conversationId),
    );
    return this.live(
      (c) =>
        c.workspaceId === workspaceId &&
        joined.has(c.id) &&
        canReadWith(c, readable) &&
        (beforeId === null || c.id < beforeId),
    )
      .sort((a, b) => b.id - a.id)
      .slice(0, limit);
  }

  async update(
    workspaceId: number,
    id: number,
    changes: { title?: string; requestedSpaceIds?: string[]; hasError?: boolean },
  ): Promise<Conversation> {
    const updatedAt = this.now();
    const [updated] = this.conversations.update(
      (c) => c.workspaceId === workspaceId && c.id === id,
      (c) => Object.assign(c, changes, { updatedAt }),
    );
    if (!updated) throw new Error(`No conversation ${id} in workspace ${workspaceId}.`);
    return toConversation(updated);
  }

  async addRequestedSpaces(workspaceId: number, id: number, spaceSIds: readonly string[]): Promise<boolean> {
    const [updated] = this.conversations.update(
      (c) =>
        c.workspaceId === workspaceId &&
        c.id === id &&
        spaceSIds.some((s) => !c.requestedSpaceIds.includes(s)),
      (c) =>
        Object.assign(c, { requestedSpaceIds: [...new Set([...c.requestedSpaceIds, ...spaceSIds])].sort() }),
    );
    return updated !== undefined;
  }

  async allocateRanks(workspaceId: number, id: number, count: number): Promise<number> {
    const updatedAt = this.now();
    const [updated] = this.conversations.update(
      (c) => c.workspaceId === workspaceId && c.id === id,
      (c) => Object.assign(c, { nextRank: c.nextRank + count, updatedAt }),
    );
    if (!updated) throw new Error(`No conversation ${id} in workspace ${workspaceId}.`);
    return updated.nextRank - count;
  }

  async reserveRanks(
    slots: RankReservation[],
  ): Promise<Map<number, { first: number; conversation: Conversation }>> {
    const reserved = new Map<number, { first: number; conversation: Conversation }>();
    const updatedAt = this.now();
    for (const slot of slots) {
      const [updated] = this.conversations.update(
        (c) => c.workspaceId === slot.workspaceId && c.id === slot.id,
        (c) =>
          Object.assign(c, {
            nextRank: c.nextRank + slot.count,
            requestedSpaceIds: [...new Set([...c.requestedSpaceIds, ...slot.requestedSpaceIds])].sort(),
            title: slot.title ?? c.title,
            updatedAt,
          }),
      );
      if (updated) {
        reserved.set(updated.id, {
          first: updated.nextRank - slot.count,
          conversation: toConversation(updated),
        });
      }
    }
    return reserved;
  }

  async lockUnlessBusy(workspaceId: number, ids: number[]): Promise<number[]> {
    return this.conversations
      .select((c) => c.workspaceId === workspaceId && ids.includes(c.id) && !this.heldElsewhere.has(c.id))
      .map((c) => c.id);
  }

  async softDelete(workspaceId: number, id: number): Promise<boolean> {
    const deletedAt = this.now();
    const deleted = this.conversations.update(
      (c) => c.workspaceId === workspaceId && c.id === id && c.deletedAt === null,
      (c) => (c.deletedAt = deletedAt),
    );
    return deleted.length === 1;
  }

  async creatorId(workspaceId: number, id: number): Promise<number | null> {
    const [first] = this.participants
      .select((p) => p.workspaceId === workspaceId && p.conversationId === id)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.userId - b.userId);
    return first?.userId ?? null;
  }

  async listParticipants(
    workspaceId: number,
    id: number,
  ): Promise<{ userId: number; action: ParticipantAction }[]> {
    const messages = (this.options.messages?.allIn(id) ?? []).filter((m) => m.workspaceId === workspaceId);
    const reactions = this.options.messages?.reactionsIn(id) ?? [];
    const since = new Map<number, number>();
    const seen = (userId: number, at: Date) =>
      since.set(userId, Math.min(at.getTime(), since.get(userId) ?? Infinity));
    for (const p of this.participants.select(
      (p) => p.workspaceId === workspaceId && p.conversationId === id,
    )) {
      seen(p.userId, p.createdAt);
    }
    for (const reaction of reactions) seen(reaction.userId, reaction.createdAt);
    const posted = new Set(messages.flatMap((m) => (m.type === 'user_message' ? [m.userId] : [])));
    const reacted = new Set(reactions.map((reaction) => reaction.userId));
    return [...since]
      .sort(([userA, a], [userB, b]) => a - b || userA - userB)
      .map(([userId]) => ({
        userId,
        action: posted.has(userId) ? 'posted' : reacted.has(userId) ? 'reacted' : 'subscribed',
      }));
  }

  async setFileCopyStatus(
    workspaceId: number,
    id: number,
    status: ForkOrigin['fileCopyStatus'],
  ): Promise<void> {
    this.conversations.update(
      (c) => c.workspaceId === workspaceId && c.id === id && c.forkedFrom !== null,
      (c) => (c.forkedFrom!.fileCopyStatus = status),
    );
  }

  async participations(
    workspaceId: number,
    conversationIds: number[],
    userId: number,
  ): Promise<Map<number, Participation>> {
    const rows = this.participants.select(
      (p) =>
        p.workspaceId === workspaceId && p.userId === userId && conversationIds.includes(p.conversationId),
    );
    return new Map(
      rows.map((p) => [
        p.conversationId,
        { userId, lastReadAt: p.lastReadAt, actionRequired: p.actionRequired },
      ]),
    );
  }

  async join(workspaceId: number, conversationId: number, userId: number): Promise<void> {
    const id = this.participants.nextId();
    if (this.participant(conversationId, userId).length > 0) return;
    this.participants.insert({
      id,
      workspaceId,
      conversationId,
      userId,
      lastReadAt: null,
      actionRequired: false,
      createdAt: this.now(),
    });
  }

  async setActionRequired(
    workspaceId: number,
    conversationId: number,
    userId: number,
    required: boolean,
  ): Promise<void> {
    await this.join(workspaceId, conversationId, userId);
    this.participants.update(
      (p) => p.conversationId === conversationId && p.userId === userId,
      (p) => (p.actionRequired = required),
    );
  }

  async markRead(
    workspaceId: number,
    conversationId: number,
    userId: number,
    at: Date | null,
  ): Promise<void> {
    await this.join(workspaceId, conversationId, userId);
    this.participants.update(
      (p) => p.workspaceId === workspaceId && p.conversationId === conversationId && p.userId === userId,
      (p) => (p.lastReadAt = at),
    );
  }

  async markReadMany(
    reads: { workspaceId: number; conversationId: number; userId: number }[],
    at: Date,
  ): Promise<void> {
    for (const read of reads) await this.markRead(read.workspaceId, read.conversationId, read.userId, at);
  }

  /** Conversations not deleted that match, in id order. */
  private live(where: (row: ConversationRow) => boolean): Conversation[] {
    return this.conversations.select((c) => c.deletedAt === null && where(c)).map(toConversation);
  }

  /** The participant row of a user in a conversation (the table's primary key). */
  private participant(conversationId: number, userId: number): ParticipantRow[] {
    return this.participants.select((p) => p.conversationId === conversationId && p.userId === userId);
  }

  private now(): Date {
    return this.options.clock?.now() ?? new Date();
  }
}

function toConversation({
  nextRank: _nextRank,
  deletedAt: _deletedAt,
  ...conversation
}: ConversationRow): Conversation {
  return conversation;
}

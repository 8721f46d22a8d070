import type { Clock } from 'src/platform/clock/clock';
import {
  AgentMessageOutcome,
  MessagePage,
  MessageRepository,
  NewAgentMessage,
  NewUserMessage,
} from 'src/modules/conversations/application/ports/message.repository';
import type { AgentMessage, Message, Reaction, UserMessage } from 'src/modules/conversations/domain/message';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

interface ReactionRow extends Reaction {
  id: number;
  workspaceId: number;
  createdAt: Date;
}

/**
 * Messages and reactions in memory, with the database's rules: one message per (conversation,
 * rank, version) and per (workspace, sId), one reaction per (message, user, emoji), every read
 * scoped by workspace, "latest" meaning the highest version at a rank.
 */
export class InMemoryMessageRepository extends MessageRepository {
  private readonly messages: InMemoryTable<Message>;
  private readonly reactions: InMemoryTable<ReactionRow>;

  constructor(private readonly options: { unitOfWork?: InMemoryUnitOfWork; clock?: Clock } = {}) {
    super();
    this.messages = new InMemoryTable(options.unitOfWork);
    this.reactions = new InMemoryTable(options.unitOfWork);
  }

  /** Every version of every message of a conversation, in the order they were written. */
  allIn(conversationId: number): Message[] {
    return this.messages.select((message) => message.conversationId === conversationId);
  }

  /** Every reaction of a conversation's messages, with when it was added. */
  reactionsIn(conversationId: number): (Reaction & { createdAt: Date })[] {
    const ids = new Set(this.allIn(conversationId).map((message) => message.id));
    return this.reactions
      .select((row) => ids.has(row.messageId))
      .map(({ messageId, userId, emoji, createdAt }) => ({ messageId, userId, emoji, createdAt }));
  }

  async insertUserMessage(message: NewUserMessage): Promise<UserMessage> {
    return this.insert(message) as UserMessage;
  }

  async insertUserMessages(messages: NewUserMessage[]): Promise<UserMessage[]> {
    return messages.map((message) => this.insert(message) as UserMessage);
  }

  async insertAgentMessage(message: NewAgentMessage): Promise<AgentMessage> {
    return this.insert(message) as AgentMessage;
  }

  async findBySId(workspaceId: number, conversationId: number, sId: string): Promise<Message | null> {
    const [found] = this.messages.select(
      (m) => m.workspaceId === workspaceId && m.conversationId === conversationId && m.sId === sId,
    );
    return found ?? null;
  }

  async findByIds(workspaceId: number, ids: number[]): Promise<Message[]> {
    return this.messages.select((m) => m.workspaceId === workspaceId && ids.includes(m.id));
  }

  async findLatestAt(workspaceId: number, conversationId: number, rank: number): Promise<Message | null> {
    const versions = this.messages
      .select((m) => m.workspaceId === workspaceId && m.conversationId === conversationId && m.rank === rank)
      .sort((a, b) => b.version - a.version);
    return versions[0] ?? null;
  }

  async answersTo(workspaceId: number, conversationId: number, rank: number): Promise<AgentMessage[]> {
    const parents = new Set(
      this.messages
        .select(
          (m) => m.workspaceId === workspaceId && m.conversationId === conversationId && m.rank === rank,
        )
        .map((m) => m.id),
    );
    return this.latest(workspaceId, conversationId).filter(
      (m): m is AgentMessage => m.type === 'agent_message' && parents.has(m.parentMessageId),
    );
  }

  async listRunning(workspaceId: number, conversationId: number): Promise<AgentMessage[]> {
    return this.messages
      .select(
        (m) =>
          m.workspaceId === workspaceId &&
          m.conversationId === conversationId &&
          m.type === 'agent_message' &&
          m.status === 'created',
      )
      .sort((a, b) => a.rank - b.rank) as AgentMessage[];
  }

  async agentsOf(workspaceId: number, conversationId: number): Promise<string[]> {
    const firstRank = new Map<string, number>();
    for (const m of this.messages.select(
      (m) => m.workspaceId === workspaceId && m.conversationId === conversationId,
    )) {
      if (m.type !== 'agent_message') continue;
      firstRank.set(m.agentSId, Math.min(m.rank, firstRank.get(m.agentSId) ?? Infinity));
    }
    return [...firstRank]
      .sort(([a, rankA], [b, rankB]) => rankA - rankB || (a < b ? -1 : a > b ? 1 : 0))
      .map(([agentSId]) => agentSId);
  }

  async latestVersionAt(workspaceId: number, conversationId: number, rank: number): Promise<number> {
    return (await this.findLatestAt(workspaceId, conversationId, rank))?.version ?? -1;
  }

  async listLatest(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<MessagePage> {
    const messages = this.latest(workspaceId, conversationId)
      .filter((m) => m.rank > afterRank)
      .slice(0, limit);
    return {
      messages,
      reactions: await this.reactionsOf(
        workspaceId,
        messages.map((m) => m.id),
      ),
    };
  }

  async listLatestUpTo(workspaceId: number, conversationId: number, maxRank: number): Promise<Message[]> {
    return this.latest(workspaceId, conversationId).filter((m) => m.rank <= maxRank);
  }

  async appendContent(
    entries: readonly { workspaceId: number; messageId: number; text: string }[],
  ): Promise<Set<number>> {
    // PostgreSQL's UPDATE … FROM applies one of several entries of a message and drops the others.
    if (new Set(entries.map((entry) => entry.messageId)).size < entries.length) {
      throw new Error('appendContent takes one entry per message: the others would be lost.');
    }
    const running = new Set<number>();
    for (const { workspaceId, messageId, text } of entries) {
      const saved = this.messages.update(
        (m) => m.id === messageId && m.workspaceId === workspaceId && isRunning(m),
        (m) => (m.content += text),
      );
      if (saved.length === 1) running.add(messageId);
    }
    return running;
  }

  async complete(workspaceId: number, messageId: number, outcome: AgentMessageOutcome): Promise<boolean> {
    const completedAt = this.now();
    const completed = this.messages.update(
      (m) => m.id === messageId && m.workspaceId === workspaceId && isRunning(m),
      (m) => Object.assign(m, { ...outcome, completedAt }),
    );
    return completed.length === 1;
  }

  async reactionsOf(workspaceId: number, messageIds: number[]): Promise<Reaction[]> {
    return this.reactions
      .select((row) => row.workspaceId === workspaceId && messageIds.includes(row.messageId))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map(({ messageId, userId, emoji }) => ({ messageId, userId, emoji }));
  }

  /** Transactions of the fakes run one at a time: there is nothing to wait for. */
  async lockReactions(_messageId: number): Promise<void> {}

  async emojisOn(workspaceId: number, messageId: number): Promise<string[]> {
    const rows = this.reactions.select(
      (row) => row.workspaceId === workspaceId && row.messageId === messageId,
    );
    return [...new Set(rows.map((row) => row.emoji))];
  }

  async addReaction(workspaceId: number, reaction: Reaction): Promise<void> {
    if (this.reactions.select((row) => sameReaction(row, reaction)).length > 0) return;
    this.reactions.insert({ ...reaction, id: this.reactions.nextId(), workspaceId, createdAt: this.now() });
  }

  async removeReaction(workspaceId: number, reaction: Reaction): Promise<void> {
    this.reactions.delete((row) => row.workspaceId === workspaceId && sameReaction(row, reaction));
  }

  private insert(message: NewUserMessage | NewAgentMessage): Message {
    const clash = this.messages.select(
      (m) =>
        (m.conversationId === message.conversationId &&
          m.rank === message.rank &&
          m.version === message.version) ||
        (m.workspaceId === message.workspaceId && m.sId === message.sId),
    );
    const id = this.messages.nextId();
    if (clash.length > 0) {
      throw new Error(
        `duplicate key: a message already holds rank ${message.rank} version ${message.version} or sId ${message.sId}`,
      );
    }
    return this.messages.insert({ ...message, id, createdAt: this.now() });
  }

  /** The latest version of each rank of a conversation, in rank order. */
  private latest(workspaceId: number, conversationId: number): Message[] {
    const byRank = new Map<number, Message>();
    for (const m of this.messages.select(
      (m) => m.workspaceId === workspaceId && m.conversationId === conversationId,
    )) {
      const kept = byRank.get(m.rank);
      if (!kept || kept.version < m.version) byRank.set(m.rank, m);
    }
    return [...byRank.values()].sort((a, b) => a.rank - b.rank);
  }

  private now(): Date {
    return this.options.clock?.now() ?? new Date();
  }
}

function isRunning(message: Message): boolean {
  return message.type === 'agent_message' && message.status === 'created';
}

function sameReaction(row: Reaction, reaction: Reaction): boolean {
  return (
    row.messageId === reaction.messageId && row.userId === reaction.userId && row.emoji === reaction.emoji
  );
}

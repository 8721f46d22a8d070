import type { AgentMessage, Message, Reaction, UserMessage } from 'src/modules/conversations/domain/message';

export type NewUserMessage = Omit<UserMessage, 'id' | 'createdAt'>;
export type NewAgentMessage = Omit<AgentMessage, 'id' | 'createdAt'>;

export interface AgentMessageOutcome {
  status: 'succeeded' | 'failed' | 'cancelled';
  content: string;
  error: { code: string; message: string } | null;
}

/** A page of messages with the reactions to them, read together since a page always shows both. */
export interface MessagePage {
  messages: Message[];
  /** Reactions to `messages`, each message's oldest first. */
  reactions: Reaction[];
}

/** Port: message versions and reactions. Every query takes the workspace id. */
export abstract class MessageRepository {
  abstract insertUserMessage(message: NewUserMessage): Promise<UserMessage>;
  /** Several user messages in one statement, returned in the order given. */
  abstract insertUserMessages(messages: NewUserMessage[]): Promise<UserMessage[]>;
  abstract insertAgentMessage(message: NewAgentMessage): Promise<AgentMessage>;
  abstract findBySId(workspaceId: number, conversationId: number, sId: string): Promise<Message | null>;
  abstract findByIds(workspaceId: number, ids: number[]): Promise<Message[]>;
  /** The latest version at `rank`, or null when the rank holds no message. */
  abstract findLatestAt(workspaceId: number, conversationId: number, rank: number): Promise<Message | null>;
  /** The latest versions of agent messages answering a version of the user message at `rank`, in rank order. */
  abstract answersTo(workspaceId: number, conversationId: number, rank: number): Promise<AgentMessage[]>;
  /** The agent messages of the conversation still being generated. */
  abstract listRunning(workspaceId: number, conversationId: number): Promise<AgentMessage[]>;
  /** The agents that answered in the conversation, in the order they first did. */
  abstract agentsOf(workspaceId: number, conversationId: number): Promise<string[]>;
  abstract latestVersionAt(workspaceId: number, conversationId: number, rank: number): Promise<number>;
  /** The latest version of each slot, in rank order, after `afterRank`, at most `limit`. */
  abstract listLatest(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<MessagePage>;
  /** The latest version of each slot up to and including `maxRank`. */
  abstract listLatestUpTo(workspaceId: number, conversationId: number, maxRank: number): Promise<Message[]>;

  /**
   * Adds each running message's new text to the end of its content, in one statement; the ids of
   * those still running (the others, cancelled or edited, are left as they are).
   */
  abstract appendContent(
    entries: readonly { workspaceId: number; messageId: number; text: string }[],
  ): Promise<Set<number>>;
  /** Moves a running message to its outcome; false when it was no longer running (another outcome won). */
  abstract complete(workspaceId: number, messageId: number, outcome: AgentMessageOutcome): Promise<boolean>;

  abstract reactionsOf(workspaceId: number, messageIds: number[]): Promise<Reaction[]>;
  /** Held until the transaction ends: reactions to this message are added one at a time. */
  abstract lockReactions(messageId: number): Promise<void>;
  /** The distinct emoji on a message. */
  abstract emojisOn(workspaceId: number, messageId: number): Promise<string[]>;
  abstract addReaction(workspaceId: number, reaction: Reaction): Promise<void>;
  abstract removeReaction(workspaceId: number, reaction: Reaction): Promise<void>;
}

import type { AgentMessage, Message, Reaction, UserMessage } from 'src/modules/conversations/domain/message';

export type NewUserMessage = Omit<UserMessage, 'id' | 'createdAt'>;
export type NewAgentMessage = Omit<AgentMessage, 'id' | 'createdAt'>;

/** Port: message versions and reactions. Every query takes the workspace id. */
export abstract class MessageRepository {
  abstract insertUserMessage(message: NewUserMessage): Promise<UserMessage>;
  abstract insertAgentMessage(message: NewAgentMessage): Promise<AgentMessage>;
  abstract findBySId(workspaceId: number, conversationId: number, sId: string): Promise<Message | null>;
  abstract findByIds(workspaceId: number, ids: number[]): Promise<Message[]>;
  abstract latestVersionAt(workspaceId: number, conversationId: number, rank: number): Promise<number>;
  /** The latest version of each slot, in rank order, after `afterRank`, at most `limit`. */
  abstract listLatest(
    workspaceId: number,
    conversationId: number,
    afterRank: number,
    limit: number,
  ): Promise<Message[]>;
  /** The latest version of each slot up to and including `maxRank`. */
  abstract listLatestUpTo(workspaceId: number, conversationId: number, maxRank: number): Promise<Message[]>;

  abstract reactionsOf(workspaceId: number, messageIds: number[]): Promise<Reaction[]>;
  abstract addReaction(workspaceId: number, reaction: Reaction): Promise<void>;
  abstract removeReaction(workspaceId: number, reaction: Reaction): Promise<void>;
}

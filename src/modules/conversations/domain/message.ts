export const MESSAGE_ORIGINS = ['web', 'api', 'slack', 'email', 'wakeup', 'extension', 'triggered'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

/** `{configurationId}` mentions an agent; `{type: 'user', userId}` mentions a member. */
export type Mention = { configurationId: string } | { type: 'user'; userId: string };

export interface MessageContext {
  username: string;
  timezone: string;
  origin: MessageOrigin;
  fullName: string | null;
  email: string | null;
  profilePictureUrl: string | null;
}

export type AgentMessageStatus = 'created' | 'succeeded' | 'failed' | 'cancelled';

interface MessageBase {
  id: number;
  sId: string;
  workspaceId: number;
  conversationId: number;
  rank: number;
  version: number;
  createdAt: Date;
}

export interface UserMessage extends MessageBase {
  type: 'user_message';
  userId: number;
  content: string;
  mentions: Mention[];
  context: MessageContext;
}

export interface AgentMessage extends MessageBase {
  type: 'agent_message';
  parentMessageId: number;
  agentSId: string;
  agentVersion: number;
  status: AgentMessageStatus;
  content: string;
  error: { code: string; message: string } | null;
  completedAt: Date | null;
}

export type Message = UserMessage | AgentMessage;

export interface Reaction {
  messageId: number;
  userId: number;
  emoji: string;
}

export const CONTENT_MAX = 100_000;
export const MENTIONS_MAX = 16;
export const EMOJI_MAX = 64;

export function agentMentions(mentions: Mention[]): string[] {
  return [
    ...new Set(
      mentions.flatMap((mention) => ('configurationId' in mention ? [mention.configurationId] : [])),
    ),
  ];
}

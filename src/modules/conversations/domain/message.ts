export const MESSAGE_ORIGINS = ['web', 'api', 'slack', 'email', 'wakeup', 'extension', 'triggered'] as const;
export type MessageOrigin = (typeof MESSAGE_ORIGINS)[number];

/** `{configurationId}` mentions an agent; `{type: 'user', userId}` mentions a member. */
export type Mention = { configurationId: string } | { type: 'user'; userId: string };

/** Set on a message an agent posted for another (Dust's `agenticMessageData`). */
export interface AgenticMessageData {
  type: 'run_agent' | 'agent_handover';
  originMessageId: string;
}

/**
 * Who posted a message and from where, and what its client asked of its runs. The fields after
 * `profilePictureUrl` are absent from messages posted before they existed.
 */
export interface MessageContext {
  username: string;
  timezone: string;
  origin: MessageOrigin;
  fullName: string | null;
  email: string | null;
  profilePictureUrl: string | null;
  /** Client-side MCP servers whose tools the message's runs get (the runtime's; its author's own only). */
  clientSideMCPServerIds?: string[] | null;
  /** Tool server views whose tools the message's runs get besides their agent's. */
  selectedMCPServerViewIds?: string[] | null;
  /** When the trigger that posted it last ran (ms), as its client said. */
  lastTriggerRunAt?: number | null;
  agenticMessageData?: AgenticMessageData | null;
  /** The message's runs call their tools without waiting for approval: its poster approves them. */
  skipToolsValidation?: boolean;
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
export const CLIENT_SIDE_SERVERS_PER_MESSAGE = 8;
export const EMOJI_MAX = 64;

export function agentMentions(mentions: Mention[]): string[] {
  return [
    ...new Set(
      mentions.flatMap((mention) => ('configurationId' in mention ? [mention.configurationId] : [])),
    ),
  ];
}

import type { LightAgentConfigurationView } from 'src/modules/agents/agents.api';
import type { ActionView } from 'src/modules/conversations/application/views/action.view';
import type { ContentFragmentView } from 'src/modules/conversations/application/views/content-fragment.view';
import type { AgentMessageStatus } from 'src/modules/conversations/domain/message';

/** The specification's four fields, and the rest of Dust's UserType. */
export interface MessageUserView {
  sId: string;
  id: number;
  createdAt: number;
  provider: string | null;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  fullName: string;
  image: string;
}

/** `{configurationId}` mentions an agent; `{type: 'user', userId}` mentions a member. */
export interface MentionView {
  configurationId?: string;
  type?: string;
  userId?: string;
}

export interface RichMentionView {
  id: string;
  type: 'agent';
  label: string;
  pictureUrl: string;
  description: string;
  dismissed: boolean;
  status: string;
  userFavorite: boolean;
}

export interface MessageContextView {
  username: string;
  timezone: string;
  origin: string;
  fullName: string;
  email: string;
  profilePictureUrl: string;
  clientSideMCPServerIds: string[] | null;
  selectedMCPServerViewIds: string[] | null;
  lastTriggerRunAt: number | null;
}

export interface AgenticMessageDataView {
  type: 'run_agent' | 'agent_handover';
  originMessageId: string;
}

export interface ReactionUserView {
  userId: string;
  username: string;
  fullName: string;
}

export interface ReactionView {
  emoji: string;
  users: ReactionUserView[];
}

/** The user message of the specification's table, field for field. */
export interface UserMessageView {
  type: 'user_message';
  sId: string;
  created: number;
  version: number;
  rank: number;
  content: string;
  id: number;
  visibility: 'visible';
  user: MessageUserView;
  mentions: MentionView[];
  richMentions: RichMentionView[];
  context: MessageContextView;
  /** Set when an agent posted it for another. */
  agenticMessageData: AgenticMessageDataView | null;
  reactions: ReactionView[];
}

export interface AgentErrorView {
  code: string;
  message: string;
  metadata: null;
}

/**
 * An agent's answer: one slot per mentioned agent, after the user message it answers. Besides our
 * fields, those of Dust's agent message, so that Dust's client reads it.
 */
export interface AgentMessageView {
  type: 'agent_message';
  sId: string;
  id: number;
  /** Dust keeps agent messages in a table of their own; here it is the message's row id. */
  agentMessageId: number;
  version: number;
  rank: number;
  created: number;
  visibility: 'visible';
  parentMessageId: string;
  /** Set by Dust when an agent message hands over to another; answers here always answer a user message. */
  parentAgentMessageId: null;
  configuration: LightAgentConfigurationView;
  status: AgentMessageStatus;
  content: string;
  /** Model reasoning is not kept apart from the answer. */
  chainOfThought: null;
  /** The answer's text as one entry: per-step outputs are not kept apart. */
  rawContents: { step: number; content: string }[];
  error: AgentErrorView | null;
  completedTs: number | null;
  actions: ActionView[];
}

export type MessageView = UserMessageView | AgentMessageView;

/** A slot of the message list: a message or a content fragment. */
export type SlotView = MessageView | ContentFragmentView;

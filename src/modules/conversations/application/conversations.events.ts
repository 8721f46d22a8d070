import type { Caller } from 'src/platform/auth/caller';
import { committedEvent, inTransactionEvent } from 'src/platform/events/in-process-events';
import type { AgentVersion } from 'src/modules/agents/agents.api';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessage, UserMessage } from 'src/modules/conversations/domain/message';

/**
 * A user message was posted or edited (or an answer retried), in the transaction that writes it:
 * what the runtime needs to answer it. The runtime queues that work in the same transaction, so a
 * committed message is never left unanswered by a process that stops.
 */
export interface MessagePosted {
  caller: Caller;
  conversation: Conversation;
  message: UserMessage;
  /** Agents this version mentions that the previous version did not (all of them for a new message). */
  newAgentMentions: string[];
  /** The latest versions of the agents the message mentions, as read for the post: runs start from these. */
  agents: AgentVersion[];
  /** Agent messages already written for this message (a retry, the new answers of an edit): run as they are. */
  rerun?: AgentMessage[];
}
export const MessagePosted = inTransactionEvent<MessagePosted>('conversation.message_posted');

/** A conversation was deleted, in the current transaction: what other contexts schedule in it goes. */
export interface ConversationDeleted {
  workspaceId: number;
  conversationId: number;
}
export const ConversationDeleted = inTransactionEvent<ConversationDeleted>('conversation.deleted');

/** An agent message was cancelled: the process generating it stops at once. */
export interface AgentMessageCancelled {
  /** The agent message's row id. */
  messageId: number;
}
export const AgentMessageCancelled = committedEvent<AgentMessageCancelled>(
  'conversation.agent_message_cancelled',
);

/**
 * An agent message got its outcome, in the current transaction (once per message): the run that
 * generates it ends with it, and its calls still waiting for approval are declined unless it succeeded.
 */
export interface AgentMessageFinished {
  workspaceId: number;
  conversationId: number;
  message: { id: number; sId: string; agentSId: string };
  status: 'succeeded' | 'failed' | 'cancelled';
}
export const AgentMessageFinished = inTransactionEvent<AgentMessageFinished>(
  'conversation.agent_message_finished',
);

import { OnEvent } from '@nestjs/event-emitter';
import type { Caller } from 'src/platform/auth/caller';
// Type-only: the payloads carry the contexts' domain objects; nothing of theirs is loaded here.
import type { AgentVersion } from 'src/modules/agents/domain/agent-configuration';
import type { Conversation } from 'src/modules/conversations/domain/conversation';
import type { AgentMessage, UserMessage } from 'src/modules/conversations/domain/message';
import type { User } from 'src/modules/identity/domain/user';
import type { Workspace } from 'src/modules/identity/domain/workspace';

/** A workspace was created with its global space and its first admin, in the current transaction. */
export interface WorkspaceCreated {
  workspace: Workspace;
  creator: User;
}

/**
 * A member left the workspace, in the current transaction: membership, spaces and keys are gone;
 * what other contexts hold for them (scheduled wake-ups) goes with them or the removal fails.
 */
export interface MemberRemoved {
  workspaceId: number;
  user: User;
}

/** A user message was posted or edited: what the runtime needs to answer it. */
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

/** A conversation was deleted, in the current transaction: what other contexts schedule in it goes. */
export interface ConversationDeleted {
  workspaceId: number;
  conversationId: number;
}

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

/** An agent message was cancelled: the process generating it stops at once. */
export interface AgentMessageCancelled {
  /** The agent message's row id. */
  messageId: number;
}

/** A tool call waiting for approval was answered: the run waiting for it (in this process) goes on at once. */
export interface ActionAnswered {
  /** The action's row id. */
  actionId: number;
}

/** A wake-up was scheduled: the scheduler of this process must wake up by `dueAt`. */
export interface WakeUpScheduled {
  dueAt: Date;
}

/**
 * Events emitted inside the transaction that makes the change: every listener is awaited, its
 * writes join that transaction, and its failure fails the emitter and undoes the change.
 */
export interface InTransactionEvents {
  'workspace.created': WorkspaceCreated;
  'workspace.member_removed': MemberRemoved;
  'conversation.deleted': ConversationDeleted;
  'conversation.agent_message_finished': AgentMessageFinished;
}

/**
 * Events that announce a committed change: emitted once the transaction commits, never when it
 * rolls back. Listeners run outside it, and a listener's failure is logged and undoes nothing.
 */
export interface CommittedEvents {
  'conversation.message_posted': MessagePosted;
  'conversation.agent_message_cancelled': AgentMessageCancelled;
  'conversation.action_answered': ActionAnswered;
  'wake_up.scheduled': WakeUpScheduled;
}

/** Port: the in-process events between contexts (a context never imports one that depends on it). */
export abstract class InProcessEvents {
  /** Runs the listeners one by one in the current transaction; the first failure stops them and is thrown. */
  abstract emitInTransaction<K extends keyof InTransactionEvents>(
    name: K,
    payload: InTransactionEvents[K],
  ): Promise<void>;
  /** Emits once the current transaction commits (at once outside one); dropped if it rolls back. */
  abstract emitAfterCommit<K extends keyof CommittedEvents>(name: K, payload: CommittedEvents[K]): void;
}

/** A listener method of event payload `P`: one that expects another payload does not compile. */
type ListenerOf<P> = (payload: P) => unknown;

/** Listens to an in-transaction event; errors propagate to the emitter, which rolls back. */
export function OnEventInTransaction<K extends keyof InTransactionEvents>(name: K) {
  return (
    target: object,
    key: string | symbol,
    descriptor: { value?: ListenerOf<InTransactionEvents[K]> },
  ): void => {
    OnEvent(name, { suppressErrors: false })(target, key, descriptor);
  };
}

/** Listens to a committed event; a failure is logged (the package's default) and goes no further. */
export function OnCommittedEvent<K extends keyof CommittedEvents>(name: K) {
  return (
    target: object,
    key: string | symbol,
    descriptor: { value?: ListenerOf<CommittedEvents[K]> },
  ): void => {
    OnEvent(name, { suppressErrors: true })(target, key, descriptor);
  };
}

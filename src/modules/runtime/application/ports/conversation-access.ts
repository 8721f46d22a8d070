import type { Caller } from 'src/platform/auth/caller';
import type { RunAgentMessage, RunConversation } from 'src/modules/runtime/application/ports/answer-sink';

/** A message of a conversation found by its sId: an agent message, or a user message the runtime leaves. */
export type FoundMessage = RunAgentMessage | { type: 'user_message'; id: number; sId: string };

/**
 * Port: a conversation and its messages as a member reaches them, with conversations' checks and
 * errors (not found, no access). The routes the runtime serves through conversations (answering a
 * tool call that waits for approval) start here; conversations answer it (bound in src/composition).
 */
export abstract class ConversationAccess {
  /** The conversation, if the caller may read it. */
  abstract conversation(caller: Caller, conversationSId: string): Promise<RunConversation>;

  /** The conversation, if the caller may read it, and its message `messageSId`. */
  abstract message(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
  ): Promise<{ conversation: RunConversation; message: FoundMessage }>;
}

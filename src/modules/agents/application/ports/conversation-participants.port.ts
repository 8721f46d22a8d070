import { Caller } from 'src/platform/auth/caller';

/**
 * Port: who takes part in a conversation, for mention suggestions made while writing in it.
 * Conversations own them and depend on this context, so the composition binds this port
 * (src/composition) instead of this context importing them.
 */
export abstract class ConversationParticipants {
  /**
   * The user sIds of its members and the configuration sIds of its agents; 404
   * `conversation_not_found` when the caller cannot read it.
   */
  abstract idsOf(caller: Caller, conversationSId: string): Promise<Set<string>>;
}

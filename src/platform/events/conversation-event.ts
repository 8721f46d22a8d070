/**
 * The events of a conversation's log (ARCHITECTURE §5). Payloads are built by the contexts that
 * own them; the log stores and replays them as they are.
 */
export const CONVERSATION_EVENT_TYPES = [
  'user_message_new',
  'agent_message_new',
  'generation_tokens',
  'agent_message_done',
  'agent_generation_cancelled',
  'conversation_title',
  'wake_up_updated',
] as const;

export type ConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number];

export interface ConversationEvent {
  type: ConversationEventType;
  /** ms since the epoch */
  created: number;
  [field: string]: unknown;
}

export interface StoredConversationEvent {
  /** Position in the log: strictly increasing across the whole service. */
  id: string;
  conversationId: number;
  event: ConversationEvent;
}

/** Port: the ordered, durable event log of conversations (an outbox; see ARCHITECTURE §5). */
export abstract class ConversationEventLog {
  /** Appends in the current transaction; the doorbell rings once it commits. */
  abstract append(workspaceId: number, conversationId: number, event: ConversationEvent): Promise<string>;
  /** Events of a conversation with id > `afterId`, oldest first. */
  abstract readAfter(
    conversationId: number,
    afterId: string,
    limit: number,
  ): Promise<StoredConversationEvent[]>;
  /** The id of the newest event of a conversation ('0' when it has none). */
  abstract lastId(conversationId: number): Promise<string>;
}

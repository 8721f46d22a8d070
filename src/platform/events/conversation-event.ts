/**
 * A conversation's durable log of events (docs/decisions/conversations.md, "The event log and the
 * streams"). The log is generic: conversations declare their events (and the contexts that write
 * to a conversation's stream write those); it stores and replays them as they are.
 */

/** What the log reads of an event: its type, and the agent message it is about when there is one. */
export interface LoggedEvent {
  type: string;
  /** sId of the agent message the event is about. */
  messageId?: string;
}

/** Which events of a conversation a reader wants: some types, of one agent message or of all. */
export interface EventFilter<Type extends string = string> {
  types: readonly Type[];
  /** sId of the agent message the events are about. */
  messageId?: string;
}

/** The largest event id: ids are PostgreSQL `bigint`s, signed 64-bit integers. */
export const MAX_EVENT_ID = 2n ** 63n - 1n;

export interface StoredConversationEvent<Event extends LoggedEvent = LoggedEvent> {
  /**
   * Position in the log: strictly increasing across the whole service. A bigint, never a string
   * or a number: strings sort 13 before 2, and numbers lose precision past 2^53.
   */
  id: bigint;
  conversationId: number;
  event: Event;
}

/** An event to append, with the conversation it belongs to. */
export interface NewConversationEvent<Event extends LoggedEvent = LoggedEvent> {
  workspaceId: number;
  conversationId: number;
  event: Event;
}

/** A reader's place in a conversation's events: it has seen those up to `afterId`. */
export interface EventPosition {
  conversationId: number;
  afterId: bigint;
}

/**
 * Port: the ordered, durable event log of conversations (an outbox; see docs/decisions/conversations.md).
 * A context that writes or reads it names its events' type: `ConversationEventLog<ConversationEvent>`.
 */
export abstract class ConversationEventLog<Event extends LoggedEvent = LoggedEvent> {
  /** Appends in the current transaction; the doorbell rings once it commits. */
  abstract append(workspaceId: number, conversationId: number, event: Event): Promise<bigint>;
  /**
   * Appends events of any conversations in one statement, in the order given (each conversation's
   * ids in that order), in the current transaction; one doorbell ring per conversation.
   */
  abstract appendMany(entries: readonly NewConversationEvent<Event>[]): Promise<bigint[]>;
  /**
   * Takes, in the current transaction, the locks that order the conversations' appends (append
   * takes them too), in one order whatever the order given. A transaction that writes rows before
   * it appends takes them first: otherwise it may hold a row that a transaction already holding
   * one of these locks waits for, a deadlock.
   */
  abstract lockForAppend(...conversationIds: number[]): Promise<void>;
  /** Events of a conversation with id > `afterId`, oldest first (those `filter` selects, when given). */
  abstract readAfter(
    conversationId: number,
    afterId: bigint,
    limit: number,
    filter?: EventFilter<Event['type']>,
  ): Promise<StoredConversationEvent<Event>[]>;
  /**
   * `readAfter` for several positions in one read: the events after each `afterId` of its
   * conversation, oldest first, at most `limit` each, in the order of `positions`.
   */
  abstract readAfterMany(
    positions: readonly EventPosition[],
    limit: number,
    filter?: EventFilter<Event['type']>,
  ): Promise<StoredConversationEvent<Event>[][]>;
  /** The id of the newest event of a conversation (0 when it has none). */
  abstract lastId(conversationId: number): Promise<bigint>;
  /**
   * The id of the newest event of a conversation written more than `ageMs` ago by the database's
   * clock (0 when there is none): the events after it are those of the last `ageMs`.
   */
  abstract lastIdOlderThan(conversationId: number, ageMs: number): Promise<bigint>;
}

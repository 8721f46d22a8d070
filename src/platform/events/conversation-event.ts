/**
 * The events of a conversation's log (docs/decisions/conversations.md, "The event log and the streams"). Payloads are built by the contexts that
 * own them; the log stores and replays them as they are.
 */
export const CONVERSATION_EVENT_TYPES = [
  // What the conversation stream (endpoint 7) sends: the specification's union of seven types.
  'user_message_new',
  'agent_message_new',
  'generation_tokens',
  'agent_message_done',
  'agent_generation_cancelled',
  'conversation_title',
  'wake_up_updated',
  // Only on an agent message's own stream.
  'tool_params',
  'tool_approve_execution',
  'agent_action_success',
  'tool_error',
  'agent_message_success',
  'agent_error',
] as const;

export type ConversationEventType = (typeof CONVERSATION_EVENT_TYPES)[number];

/** What the conversation stream (endpoint 7) sends: the specification's union of seven types. */
export const CONVERSATION_STREAM_TYPES: readonly ConversationEventType[] = CONVERSATION_EVENT_TYPES.slice(
  0,
  7,
);

/** What one agent message's stream sends: its tokens, tool calls, approvals and outcome. */
export const MESSAGE_STREAM_TYPES: readonly ConversationEventType[] = [
  'generation_tokens',
  'tool_params',
  'tool_approve_execution',
  'agent_action_success',
  'tool_error',
  'agent_message_success',
  'agent_error',
  'agent_generation_cancelled',
];

/** Which events of a conversation a reader wants: some types, of one agent message or of all. */
export interface EventFilter {
  types: readonly ConversationEventType[];
  /** sId of the agent message the events are about. */
  messageId?: string;
}

/** What a `generation_tokens` chunk is: the answer, or the model's reasoning when a provider streams it. */
export type TokensClassification = 'tokens' | 'chain_of_thought';

/**
 * What each event type carries besides `type` and `created`, as clients see it (the spec fixes these
 * shapes). Message and wake-up views stay opaque here: their owners' typed renderers build them.
 */
export interface ConversationEventFields {
  user_message_new: { messageId: string; message: unknown };
  agent_message_new: { configurationId: string; messageId: string; message: unknown };
  generation_tokens: {
    configurationId: string;
    messageId: string;
    text: string;
    classification: TokensClassification;
  };
  agent_message_done: {
    conversationId: string;
    configurationId: string;
    messageId: string;
    status: 'success' | 'error';
  };
  agent_generation_cancelled: { configurationId: string; messageId: string };
  conversation_title: { title: string };
  wake_up_updated: { conversationId: string; wakeUp: unknown };
  tool_params: { configurationId: string; messageId: string; action: unknown };
  tool_approve_execution: {
    configurationId: string;
    conversationId: string;
    messageId: string;
    actionId: string;
    inputs: Record<string, unknown>;
    metadata: { toolName: string; mcpServerName: string; agentName: string };
    action: unknown;
  };
  agent_action_success: { configurationId: string; messageId: string; action: unknown };
  tool_error: {
    configurationId: string;
    messageId: string;
    action: unknown;
    error: { code: string; message: string; metadata: null };
  };
  agent_message_success: { configurationId: string; messageId: string; message: unknown; runIds: string[] };
  agent_error: {
    configurationId: string;
    messageId: string;
    error: { code: string; message: string; metadata: null };
    runIds: string[];
  };
}

/** One event of type `T`, as written to the log and sent on the stream. */
export type ConversationEventOf<T extends ConversationEventType> = {
  type: T;
  /** ms since the epoch */
  created: number;
} & ConversationEventFields[T];

/** Any event of the log: a union discriminated by `type`, so a misspelt or missing field does not compile. */
export type ConversationEvent = {
  [T in ConversationEventType]: ConversationEventOf<T>;
}[ConversationEventType];

/** The largest event id: ids are PostgreSQL `bigint`s, signed 64-bit integers. */
export const MAX_EVENT_ID = 2n ** 63n - 1n;

export interface StoredConversationEvent {
  /**
   * Position in the log: strictly increasing across the whole service. A bigint, never a string
   * or a number: strings sort 13 before 2, and numbers lose precision past 2^53.
   */
  id: bigint;
  conversationId: number;
  event: ConversationEvent;
}

/** An event to append, with the conversation it belongs to. */
export interface NewConversationEvent {
  workspaceId: number;
  conversationId: number;
  event: ConversationEvent;
}

/** A reader's place in a conversation's events: it has seen those up to `afterId`. */
export interface EventPosition {
  conversationId: number;
  afterId: bigint;
}

/** Port: the ordered, durable event log of conversations (an outbox; see docs/decisions/conversations.md). */
export abstract class ConversationEventLog {
  /** Appends in the current transaction; the doorbell rings once it commits. */
  abstract append(workspaceId: number, conversationId: number, event: ConversationEvent): Promise<bigint>;
  /**
   * Appends events of any conversations in one statement, in the order given (each conversation's
   * ids in that order), in the current transaction; one doorbell ring per conversation.
   */
  abstract appendMany(entries: readonly NewConversationEvent[]): Promise<bigint[]>;
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
    filter?: EventFilter,
  ): Promise<StoredConversationEvent[]>;
  /**
   * `readAfter` for several positions in one read: the events after each `afterId` of its
   * conversation, oldest first, at most `limit` each, in the order of `positions`.
   */
  abstract readAfterMany(
    positions: readonly EventPosition[],
    limit: number,
    filter?: EventFilter,
  ): Promise<StoredConversationEvent[][]>;
  /** The id of the newest event of a conversation (0 when it has none). */
  abstract lastId(conversationId: number): Promise<bigint>;
  /**
   * The id of the newest event of a conversation written more than `ageMs` ago by the database's
   * clock (0 when there is none): the events after it are those of the last `ageMs`.
   */
  abstract lastIdOlderThan(conversationId: number, ageMs: number): Promise<bigint>;
}

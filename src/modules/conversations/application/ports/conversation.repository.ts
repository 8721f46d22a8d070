import type {
  AccessibleSpaces,
  Conversation,
  ForkOrigin,
  NewConversation,
  Participation,
} from 'src/modules/conversations/domain/conversation';

/** A conversation as one reader sees it: with their participation, its space's sId and whether it was forked. */
export interface ConversationRead {
  conversation: Conversation;
  participation: Participation | null;
  /** Null when the conversation is in no space. */
  spaceSId: string | null;
  hasChildren: boolean;
}

export interface RankReservation {
  workspaceId: number;
  id: number;
  count: number;
  requestedSpaceIds: string[];
  /** Null leaves the title as it is. */
  title: string | null;
}

/** How a member takes part in a conversation: wrote in it, reacted in it, or only follows it. */
export type ParticipantAction = 'posted' | 'reacted' | 'subscribed';

/** Port: conversations and their participants. Every query takes the workspace id. */
export abstract class ConversationRepository {
  abstract create(conversation: NewConversation): Promise<Conversation>;
  /** New conversations with one multi-row insert, in the order given. */
  abstract createMany(conversations: NewConversation[]): Promise<Conversation[]>;
  abstract find(workspaceId: number, sId: string): Promise<Conversation | null>;
  /** `find`, the user's participation, the space's sId and whether forks exist, in one round trip (the hot read path). */
  abstract findForReader(workspaceId: number, sId: string, userId: number): Promise<ConversationRead | null>;
  abstract findByIds(workspaceId: number, ids: number[]): Promise<Conversation[]>;
  /** Conversations of several workspaces by row id, in one query, each scoped by its workspace. */
  abstract findByRefs(refs: { workspaceId: number; ids: number[] }[]): Promise<Conversation[]>;
  abstract findChildren(workspaceId: number, parentIds: number[]): Promise<Conversation[]>;
  /**
   * The user's conversations that a reader of these spaces may read (see `canReadWith`), newest
   * first, strictly older than the cursor (a conversation id).
   */
  abstract listForUser(
    workspaceId: number,
    userId: number,
    readable: AccessibleSpaces,
    beforeId: number | null,
    limit: number,
  ): Promise<Conversation[]>;
  /** Applies the changes and bumps `updatedAt`. */
  abstract update(
    workspaceId: number,
    id: number,
    changes: { title?: string; hasError?: boolean },
  ): Promise<Conversation>;
  /**
   * Adds spaces to the conversation's requested spaces (kept sorted, each once), whatever other
   * transactions add at the same time; false when it held them all already.
   */
  abstract addRequestedSpaces(
    workspaceId: number,
    id: number,
    spaceSIds: readonly string[],
  ): Promise<boolean>;
  /** Reserves `count` consecutive ranks and returns the first; concurrent callers queue on the row. */
  abstract allocateRanks(workspaceId: number, id: number, count: number): Promise<number>;
  /**
   * `allocateRanks` and `update` of several conversations in one statement (a batch of posts):
   * reserves `count` ranks in each (0: none, the row is only locked), adds to its requested spaces
   * and, when given, sets its title. Returns, by conversation id, the first reserved rank and the
   * conversation as the statement left it.
   */
  abstract reserveRanks(
    slots: RankReservation[],
  ): Promise<Map<number, { first: number; conversation: Conversation }>>;
  /**
   * Locks these conversations for the current transaction as a rank reservation would, skipping
   * those another transaction holds; returns the ids it locked.
   */
  abstract lockUnlessBusy(workspaceId: number, ids: number[]): Promise<number[]>;
  /** Marks the conversation deleted (every read leaves it out from then on); false when it already was. */
  abstract softDelete(workspaceId: number, id: number): Promise<boolean>;
  /** The member who created the conversation: its first participant. */
  abstract creatorId(workspaceId: number, id: number): Promise<number | null>;
  /**
   * The members who take part (participants and those who reacted), first comers first, with what
   * they did: `posted` a user message, else `reacted` to one, else `subscribed`.
   */
  abstract listParticipants(
    workspaceId: number,
    id: number,
  ): Promise<{ userId: number; action: ParticipantAction }[]>;
  abstract setFileCopyStatus(
    workspaceId: number,
    id: number,
    status: ForkOrigin['fileCopyStatus'],
  ): Promise<void>;

  abstract participations(
    workspaceId: number,
    conversationIds: number[],
    userId: number,
  ): Promise<Map<number, Participation>>;
  /** Makes the user a participant (idempotent). */
  abstract join(workspaceId: number, conversationId: number, userId: number): Promise<void>;
  /** Sets whether the user must act in the conversation (a tool call waits for them), joining them if needed. */
  abstract setActionRequired(
    workspaceId: number,
    conversationId: number,
    userId: number,
    required: boolean,
  ): Promise<void>;
  abstract markRead(
    workspaceId: number,
    conversationId: number,
    userId: number,
    at: Date | null,
  ): Promise<void>;
  /** `markRead` of each at `at`, in one statement. */
  abstract markReadMany(
    reads: { workspaceId: number; conversationId: number; userId: number }[],
    at: Date,
  ): Promise<void>;
}

/** The LISTEN/NOTIFY channel of access notices, beside the conversation events' doorbell. */
export const ACCESS_CHANGES_CHANNEL = 'access_changes';

/** Something that may end a caller's access to conversations, so open streams re-check theirs. */
export type AccessChange =
  | { kind: 'key_revoked'; keyId: string }
  | { kind: 'member_changed'; workspaceId: number; userId: number }
  | { kind: 'conversation_changed'; conversationId: number }
  /** Notices may have been lost (the LISTEN connection was down): anything may have changed. */
  | { kind: 'unknown' };

/** Port: access changes, announced by the process that makes them and heard by every process. */
export abstract class AccessChanges {
  /** Announces to every process, this one included, once the current transaction commits. */
  abstract announce(change: AccessChange): Promise<void>;
  /** Hears the changes announced by any process; returns the unsubscribe. */
  abstract subscribe(listener: (change: AccessChange) => void): () => void;
}

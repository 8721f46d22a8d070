/** A running agent message whose runner stopped giving signs of life. */
export interface StaleRun {
  workspaceId: number;
  conversationId: number;
  messageId: number;
}

/**
 * Port: which process generates which agent message, and its last sign of life. The runtime owns
 * this state; the messages themselves (content, status, events) belong to conversations.
 */
export abstract class RunStateRepository {
  /**
   * Stamps running agent messages as this runner's, alive now, acting for `userId`; joins the
   * transaction that created them.
   */
  abstract claim(
    runnerId: string,
    runs: { workspaceId: number; messageId: number; userId: number }[],
  ): Promise<void>;
  /** Takes a stale run over for this runner; false when it is no longer stale (another runner took it, or it ended). */
  abstract takeOver(runnerId: string, run: StaleRun, staleAfterMs: number): Promise<boolean>;
  /** The member a run acts for. */
  abstract runUserId(run: StaleRun): Promise<number | null>;
  /** Every running message of this runner is alive now. */
  abstract heartbeat(runnerId: string): Promise<void>;
  /** Running messages whose last sign of life is older than `staleAfterMs`, oldest first, at most `limit`. */
  abstract findStale(staleAfterMs: number, limit: number): Promise<StaleRun[]>;
}

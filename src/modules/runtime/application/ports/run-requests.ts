import type { Scope } from 'src/platform/auth/scopes';

/**
 * The work a posted message (an edit, a retry, a wake-up or trigger firing) asks of the runtime,
 * queued with it: the member it was posted for, through which key and scopes, the agents it newly
 * mentions and the agent messages it brings written, to run again.
 */
export interface RunRequest {
  id: number;
  workspaceId: number;
  conversationId: number;
  /** The user message to answer. */
  messageId: number;
  userId: number;
  keyId: string;
  scopes: Scope[];
  newAgentMentions: string[];
  rerunMessageIds: number[];
}

export type NewRunRequest = Omit<RunRequest, 'id'>;

/**
 * Port: the queue of run requests, shared by every process. A request is written in the
 * transaction that writes its message, and taken by the transaction that starts its runs: it is
 * gone once that commits, back in the queue if it rolls back or its process dies first.
 */
export abstract class RunRequestQueue {
  /** Queues in the current transaction; answers the request's id. */
  abstract enqueue(request: NewRunRequest): Promise<number>;
  /**
   * In the current transaction, takes the next request in turn: each workspace's oldest first,
   * round-robin across workspaces, skipping those of `skippedWorkspaceIds` and the requests other
   * transactions hold.
   */
  abstract claimNext(skippedWorkspaceIds: readonly number[]): Promise<RunRequest | null>;
  /**
   * A request whose start failed waits longer after each failure (1 s, 2 s, 4 s…) and is given up
   * after `maxAttempts`; answers whether it was given up.
   */
  abstract putOff(id: number, maxAttempts: number): Promise<boolean>;
}

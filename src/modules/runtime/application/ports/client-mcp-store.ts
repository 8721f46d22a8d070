import type { McpSession } from 'src/platform/mcp/mcp-session';
import type { ClientMcpServer } from 'src/modules/runtime/domain/client-mcp-server';

/** A JSON-RPC message for a client-side server, as its client polls it. */
export interface ClientMcpRequest {
  /** The event id, increasing; also the JSON-RPC id of a request that expects an answer. */
  id: string;
  message: Record<string, unknown>;
}

/** How a request ended: the client's JSON-RPC answer, or why none will come. */
export interface ClientMcpOutcome {
  id: string;
  answer: Record<string, unknown> | null;
  droppedReason: string | null;
}

/**
 * Port: client-side servers and their requests, timed by the database's clock so every process
 * agrees on which servers are alive. Every read is scoped to the workspace and member it names.
 */
export abstract class ClientMcpStore {
  /** A new server, or null when the member holds `limit` live ones already. */
  abstract register(
    owner: { workspaceId: number; userId: number },
    name: string,
    limit: number,
    ttlMs: number,
  ): Promise<ClientMcpServer | null>;
  /** Extends a live server's life; null when it is not the member's or was dropped. */
  abstract heartbeat(
    owner: { workspaceId: number; userId: number },
    sId: string,
    ttlMs: number,
  ): Promise<ClientMcpServer | null>;
  /** The member's live servers among `sIds`. */
  abstract findLive(
    owner: { workspaceId: number; userId: number },
    sIds: string[],
  ): Promise<ClientMcpServer[]>;
  /**
   * Deletes expired servers and ends their unanswered requests with `reason(name)`; two processes
   * sweeping at once never drop one server twice. Also forgets requests older than `forgetAfterMs`.
   */
  abstract dropExpired(reason: (name: string) => string, forgetAfterMs: number): Promise<ClientMcpServer[]>;
  /** Queues a message for the server's client; the id it will be delivered under. */
  abstract enqueue(
    serverId: number,
    message: Record<string, unknown>,
    expectsAnswer: boolean,
  ): Promise<string>;
  /** Requests after `afterId` not answered yet, oldest first. */
  abstract pendingAfter(serverId: number, afterId: string, limit: number): Promise<ClientMcpRequest[]>;
  /** Records the answer of an unanswered request of the server; false when there is none. */
  abstract answer(serverId: number, requestId: string, answer: Record<string, unknown>): Promise<boolean>;
  /** The ended requests among `ids`. */
  abstract outcomes(ids: string[]): Promise<ClientMcpOutcome[]>;
  abstract forget(ids: string[]): Promise<void>;
}

/**
 * What a server's notice says: `requests` queued for its client (its request streams read them),
 * `answers` posted by its client (the runs waiting on it read them), or the server `dropped` (both).
 */
export type ClientMcpNews = 'requests' | 'answers' | 'dropped';

/** Port: "server N has news", heard by every process. */
export abstract class ClientMcpNotices {
  /** Rings the server's subscribers to `news` in every process once the current transaction commits. */
  abstract ring(serverId: number, news: ClientMcpNews): Promise<void>;
  /**
   * Rings `ring` on each notice of the server about `news` (and on its drop), and after notices
   * may have been lost; returns the unsubscribe.
   */
  abstract subscribe(serverId: number, news: 'requests' | 'answers', ring: () => void): () => void;
}

/** Port: a session with a client-side server, its messages going through the store. */
export abstract class ClientMcpConnector {
  abstract connect(server: ClientMcpServer, signal: AbortSignal): Promise<McpSession>;
}

import { Injectable } from '@nestjs/common';
import type { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { DomainError, InvalidRequestError } from 'src/platform/errors/domain-error';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import {
  ClientMcpNotices,
  ClientMcpRequest,
  ClientMcpStore,
} from 'src/modules/runtime/application/ports/client-mcp-store';
import {
  CLIENT_MCP_SERVERS_PER_MEMBER,
  ClientMcpServer,
  clientServerNameProblem,
  droppedServerText,
} from 'src/modules/runtime/domain/client-mcp-server';
import {
  ClientServerLease,
  renderClientServerLease,
} from 'src/modules/runtime/application/views/client-server-lease.view';
import { ApiKeysService } from 'src/modules/identity/identity.api';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** Requests one read of a poll hands over at most; a full batch is followed at once by the next. */
const POLL_BATCH = 50;

class ClientServerNotFound extends DomainError {
  constructor(sId: string) {
    super(
      'not_found',
      `No client-side MCP server "${sId}" is registered for you in this workspace (or it was dropped: register it again).`,
    );
  }
}

/**
 * Client-side MCP servers: registered and kept alive by their member's client, dropped once its
 * heartbeats stop, their requests handed to the client's polls and their answers recorded.
 */
@Injectable()
export class ClientMcpServersService {
  constructor(
    private readonly store: ClientMcpStore,
    private readonly notices: ClientMcpNotices,
    private readonly config: RuntimeConfig,
    private readonly mcp: McpConfig,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeysService,
  ) {}

  async register(caller: Caller, name: string): Promise<ClientServerLease> {
    const problem = clientServerNameProblem(name);
    if (problem) throw new InvalidRequestError(problem);
    const server = await this.store.register(
      caller,
      name,
      CLIENT_MCP_SERVERS_PER_MEMBER,
      this.config.clientServers.timeoutMs,
    );
    if (!server) {
      throw new InvalidRequestError(
        `You already have ${CLIENT_MCP_SERVERS_PER_MEMBER} client-side MCP servers registered in this workspace; stop one (or let it expire) first.`,
      );
    }
    return renderClientServerLease(server);
  }

  async heartbeat(caller: Caller, sId: string): Promise<ClientServerLease> {
    const server = await this.store.heartbeat(caller, sId, this.config.clientServers.timeoutMs);
    if (!server) throw new ClientServerNotFound(sId);
    return renderClientServerLease(server);
  }

  /** The caller's live server `sId`, or 404. */
  async live(caller: Caller, sId: string): Promise<ClientMcpServer> {
    const [server] = await this.store.findLive(caller, [sId]);
    if (!server) throw new ClientServerNotFound(sId);
    return server;
  }

  /**
   * Whether each request stream's key still polls for its member in its workspace (not revoked,
   * the member still there, `write:conversation` kept): one query for every stream re-checked.
   */
  async stillPolling(
    grants: readonly { keyId: string; workspaceId: number; userId: number }[],
  ): Promise<boolean[]> {
    const callers = await this.apiKeys.currentCallers(grants.map((grant) => grant.keyId));
    return grants.map((grant) => {
      const caller = callers.get(grant.keyId);
      return (
        caller?.workspaceId === grant.workspaceId &&
        caller.userId === grant.userId &&
        caller.hasScope('write:conversation')
      );
    });
  }

  /** The member's live servers among `sIds` (others' ids find nothing). */
  liveOf(owner: { workspaceId: number; userId: number }, sIds: string[]): Promise<ClientMcpServer[]> {
    return this.store.findLive(owner, sIds);
  }

  /**
   * The server's requests after `afterId`, handed to `deliver` as they are queued, until
   * `requestsWaitMs` has passed, the server is dropped, or `signal` aborts (the client left).
   * Woken by the server's notices, never by polling the table.
   */
  async poll(
    server: ClientMcpServer,
    afterId: string,
    deliver: (requests: ClientMcpRequest[]) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    let cursor = afterId;
    let rung = true;
    let wake: (() => void) | null = null;
    const ring = () => {
      rung = true;
      wake?.();
    };
    const unsubscribe = this.notices.subscribe(server.id, 'requests', ring);
    const timer = setTimeout(ring, this.config.clientServers.requestsWaitMs);
    const deadline = this.clock.now().getTime() + this.config.clientServers.requestsWaitMs;
    signal.addEventListener('abort', ring, { once: true });
    try {
      while (!signal.aborted && this.clock.now().getTime() < deadline) {
        if (!rung) await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        rung = false;
        if (signal.aborted) return;
        if ((await this.store.findLive(server, [server.sId])).length === 0) return;
        for (;;) {
          const requests = await this.store.pendingAfter(server.id, cursor, POLL_BATCH);
          if (requests.length === 0) break;
          cursor = requests[requests.length - 1].id;
          await deliver(requests);
          if (requests.length < POLL_BATCH) break;
        }
      }
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', ring);
      unsubscribe();
    }
  }

  /**
   * Records the client's JSON-RPC message: an answer reaches the run waiting for it, whichever
   * process runs it; a notification or a request of the server is taken and set aside.
   */
  async postResult(caller: Caller, sId: string, message: Record<string, unknown>): Promise<void> {
    const server = await this.live(caller, sId);
    if ('method' in message) return;
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') {
      throw new InvalidRequestError(
        'result must be a JSON-RPC message: an answer carries the id of its request.',
      );
    }
    if (!('result' in message) && !('error' in message)) {
      throw new InvalidRequestError('result: a JSON-RPC answer carries `result` or `error`.');
    }
    const requestId = String(id);
    if (!/^\d{1,18}$/.test(requestId) || !(await this.store.answer(server.id, requestId, message))) {
      throw new DomainError(
        'not_found',
        `No request ${requestId} of this server is waiting for an answer (it was answered, or its call ended).`,
      );
    }
    await this.notices.ring(server.id, 'answers');
  }

  /** Drops the servers whose client stopped beating; the runs waiting on them hear why. */
  async sweep(): Promise<ClientMcpServer[]> {
    const { timeoutMs, connectTimeoutMs } = this.config.clientServers;
    // Past twice the longest wait of a call, no run is waiting for a request any more.
    const forgetAfterMs = 2 * Math.max(this.mcp.callTimeoutMs, connectTimeoutMs);
    const dropped = await this.store.dropExpired((name) => droppedServerText(name, timeoutMs), forgetAfterMs);
    for (const server of dropped) await this.notices.ring(server.id, 'dropped');
    return dropped;
  }
}

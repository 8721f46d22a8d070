import { Injectable } from '@nestjs/common';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { McpConnectionError, McpSession } from 'src/platform/mcp/mcp-session';
import { SdkMcpSession, mcpClient } from 'src/platform/mcp/sdk-session';
import {
  ClientMcpConnector,
  ClientMcpNotices,
  ClientMcpStore,
} from 'src/modules/runtime/application/ports/client-mcp-store';
import type { ClientMcpServer } from 'src/modules/runtime/domain/client-mcp-server';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** The JSON-RPC error code standing for an answer that will never come (the server was dropped). */
const SERVER_DROPPED = -32000;

/**
 * An MCP transport whose messages are rows the server's client polls, and whose answers are the
 * rows' answers, read when the server's notice rings. The SDK's client above it keeps its own
 * request ids; on the wire each request takes its row's id, mapped back here.
 */
class ClientMcpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Row id → the SDK's id of the request, for requests still waiting for their answer. */
  private readonly outstanding = new Map<string, string | number>();
  private unsubscribe: (() => void) | null = null;
  private collecting: Promise<void> | null = null;
  private collectAgain = false;

  constructor(
    private readonly server: ClientMcpServer,
    private readonly store: ClientMcpStore,
    private readonly notices: ClientMcpNotices,
  ) {}

  start(): Promise<void> {
    this.unsubscribe = this.notices.subscribe(this.server.id, 'answers', () => this.collect());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only requests and notifications go to the client: this side answers none of its requests.
    if (!('method' in message)) return;
    const { id, ...rest } = message as JSONRPCMessage & { id?: string | number };
    const rowId = await this.store.enqueue(this.server.id, rest, id !== undefined);
    if (id !== undefined) this.outstanding.set(rowId, id);
    await this.notices.ring(this.server.id, 'requests');
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    const ids = [...this.outstanding.keys()];
    this.outstanding.clear();
    await this.store.forget(ids).catch(() => undefined);
    this.onclose?.();
  }

  /** Reads the answers of outstanding requests; one read at a time, another after it if rung meanwhile. */
  private collect(): void {
    if (this.collecting) {
      this.collectAgain = true;
      return;
    }
    this.collecting = this.readOutcomes()
      .catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.collecting = null;
        if (this.collectAgain) {
          this.collectAgain = false;
          this.collect();
        }
      });
  }

  private async readOutcomes(): Promise<void> {
    const outcomes = await this.store.outcomes([...this.outstanding.keys()]);
    for (const outcome of outcomes) {
      const id = this.outstanding.get(outcome.id);
      if (id === undefined) continue;
      this.outstanding.delete(outcome.id);
      const answer: JSONRPCMessage =
        outcome.droppedReason !== null || !outcome.answer
          ? {
              jsonrpc: '2.0',
              id,
              error: { code: SERVER_DROPPED, message: outcome.droppedReason ?? 'No answer.' },
            }
          : ({ ...outcome.answer, jsonrpc: '2.0', id } as JSONRPCMessage);
      this.onmessage?.(answer);
    }
    await this.store.forget(outcomes.map((outcome) => outcome.id));
  }
}

/** Opens MCP sessions with client-side servers: the SDK's client over the polled queue. */
@Injectable()
export class QueuedClientMcpConnector extends ClientMcpConnector {
  constructor(
    private readonly store: ClientMcpStore,
    private readonly notices: ClientMcpNotices,
    private readonly config: RuntimeConfig,
  ) {
    super();
  }

  async connect(server: ClientMcpServer, signal: AbortSignal): Promise<McpSession> {
    const client = mcpClient();
    try {
      await client.connect(new ClientMcpTransport(server, this.store, this.notices), {
        signal,
        timeout: this.config.clientServers.connectTimeoutMs,
      });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw new McpConnectionError(
        'unreachable',
        `The client-side MCP server "${server.name}" did not answer its handshake within ${this.config.clientServers.connectTimeoutMs} ms: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return new SdkMcpSession(client);
  }
}

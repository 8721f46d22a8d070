import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { answerTooLarge, boundedMcpFetch } from 'src/platform/mcp/bounded-answers';
import { McpConfig } from 'src/platform/mcp/mcp.config';
import { describeMcpFailure } from 'src/platform/mcp/mcp-failure';
import { McpConnectionError, McpConnector, McpSession, RemoteMcpTarget } from 'src/platform/mcp/mcp-session';
import { SdkMcpSession, mcpClient } from 'src/platform/mcp/sdk-session';
import { createGuardedFetch, findForbiddenAddress, GuardedFetch } from 'src/platform/net/guarded-fetch';

/** How long connecting and the MCP handshake may take, each transport tried. */
const MCP_CONNECT_TIMEOUT_MS = 10_000;

/** HTTP statuses from which a client falls back to the older SSE transport (the MCP specification's rule). */
const isFallbackStatus = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 401 && status !== 403;

/**
 * Connects to remote MCP servers: Streamable HTTP first, the older SSE transport when the server
 * refuses it with a 4xx, the shared secret as `Authorization: Bearer` on every request. Every
 * connection goes through the network guard (no loopback, private or metadata address unless
 * `MCP_ALLOW_PRIVATE_NETWORKS`), and every answer is read against `MCP_MESSAGE_MAX_BYTES`.
 */
@Injectable()
export class RemoteMcpConnector extends McpConnector implements BeforeApplicationShutdown {
  private readonly network: { fetch: GuardedFetch; close(): Promise<void> };
  private readonly fetch: GuardedFetch;

  constructor(config: McpConfig) {
    super();
    this.network = createGuardedFetch({
      allowPrivateNetworks: config.allowPrivateNetworks,
      connectTimeoutMs: MCP_CONNECT_TIMEOUT_MS,
    });
    this.fetch = boundedMcpFetch(this.network.fetch, config.messageMaxBytes);
  }

  async connectRemote(target: RemoteMcpTarget, signal?: AbortSignal): Promise<McpSession> {
    const url = parseUrl(target.url);
    const requestInit: RequestInit = target.sharedSecret
      ? { headers: { Authorization: `Bearer ${target.sharedSecret}` } }
      : {};
    const options = { fetch: this.fetch, requestInit };
    try {
      return await this.connect(new StreamableHTTPClientTransport(url, options), signal);
    } catch (error) {
      if (!(error instanceof StreamableHTTPError && isFallbackStatus(error.code ?? 0))) {
        throw connectionError(error, signal);
      }
    }
    try {
      return await this.connect(new SSEClientTransport(url, options), signal);
    } catch (error) {
      throw connectionError(error, signal);
    }
  }

  private async connect(transport: Transport, signal?: AbortSignal): Promise<McpSession> {
    const client = mcpClient();
    const deadline = AbortSignal.timeout(MCP_CONNECT_TIMEOUT_MS);
    try {
      await client.connect(transport, {
        signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        timeout: MCP_CONNECT_TIMEOUT_MS,
      });
      return new SdkMcpSession(client);
    } catch (error) {
      await client.close().catch(() => undefined);
      if (deadline.aborted && !signal?.aborted) {
        throw new McpConnectionError(
          'unreachable',
          `The server did not complete the connection within ${MCP_CONNECT_TIMEOUT_MS / 1000} s.`,
        );
      }
      throw error;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.network.close();
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new McpConnectionError('forbidden_address', 'The URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new McpConnectionError('forbidden_address', 'Only http and https URLs are allowed.');
  }
  return url;
}

/** A failed connection as the user should read it; a caller's abort stays what it was. */
function connectionError(error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof McpConnectionError) return error;
  const tooLarge = answerTooLarge(error);
  if (tooLarge) return tooLarge;
  const forbidden = findForbiddenAddress(error);
  if (forbidden) return new McpConnectionError('forbidden_address', forbidden.message);
  if (error instanceof McpError && error.code === (ErrorCode.RequestTimeout as number)) {
    return new McpConnectionError(
      'unreachable',
      `The server did not complete the connection within ${MCP_CONNECT_TIMEOUT_MS / 1000} s.`,
    );
  }
  const { kind, reason } = describeMcpFailure(error);
  return new McpConnectionError(kind, reason);
}

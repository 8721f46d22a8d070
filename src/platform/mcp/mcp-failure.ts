import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC's and the SDK's own error codes, in words. */
const MCP_ERROR_NAMES: Record<number, string> = {
  [ErrorCode.ParseError]: 'parse error',
  [ErrorCode.InvalidRequest]: 'invalid request',
  [ErrorCode.MethodNotFound]: 'method not found',
  [ErrorCode.InvalidParams]: 'invalid params',
  [ErrorCode.InternalError]: 'internal error',
  [ErrorCode.ConnectionClosed]: 'connection closed',
};

/**
 * The HTTP status an SDK transport error carries: its `code`, or, for the legacy transport's POST,
 * the status the SDK writes into its own message ("Error POSTing to endpoint (HTTP 500): …").
 */
function httpStatusOf(error: unknown): number | null {
  if (error instanceof StreamableHTTPError || error instanceof SseError) {
    const status = error.code ?? 0;
    return status >= 100 && status <= 599 ? status : null;
  }
  const posted =
    error instanceof Error ? /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message) : null;
  return posted ? Number(posted[1]) : null;
}

/**
 * Why a fetch got no HTTP answer at all (`connect ECONNREFUSED 127.0.0.1:4000`, `getaddrinfo
 * ENOTFOUND host`, `bad port`…): the innermost cause under undici's "fetch failed", if any. These
 * messages are Node's and undici's, never the server's.
 */
function networkCause(error: unknown): string | null {
  let failedFetch = false;
  let innermost: unknown = null;
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) {
      return (current as Error).message || code;
    }
    if (current instanceof TypeError && current.message === 'fetch failed') failedFetch = true;
    innermost = current;
    current = (current as { cause?: unknown }).cause;
  }
  return failedFetch && innermost instanceof Error ? innermost.message : null;
}

/** Why talking to a remote MCP server failed: no usable answer came (`unreachable`), or a wrong one. */
export interface McpFailure {
  kind: 'unreachable' | 'protocol_error';
  reason: string;
}

/**
 * Why talking to a remote MCP server failed, as members may read it (a server's `lastSyncError` is
 * shown to anyone with read:agent): an HTTP status or an MCP error code with a short reason of
 * ours. Never the server's own bytes (response bodies, its error messages, headers, values echoed
 * by a failed validation): the SDK puts those in its messages, which go to the operator's log only.
 */
export function describeMcpFailure(error: unknown): McpFailure {
  const status = httpStatusOf(error);
  if (status === 401 || status === 403 || error instanceof UnauthorizedError) {
    const reason = `The server refused the request (HTTP ${status ?? 401}); check the shared secret.`;
    return { kind: 'unreachable', reason };
  }
  if (status !== null) return { kind: 'protocol_error', reason: `The server answered HTTP ${status}.` };
  if (error instanceof McpError) {
    if (error.code === (ErrorCode.RequestTimeout as number)) {
      return { kind: 'unreachable', reason: 'The server did not answer in time.' };
    }
    if (!Number.isSafeInteger(error.code)) {
      return { kind: 'protocol_error', reason: 'The server answered with an MCP error.' };
    }
    const name = MCP_ERROR_NAMES[error.code];
    const reason = `The server answered with MCP error ${error.code}${name ? ` (${name})` : ''}.`;
    return { kind: 'protocol_error', reason };
  }
  const cause = networkCause(error);
  if (cause) return { kind: 'unreachable', reason: `The server could not be reached: ${cause}.` };
  return { kind: 'protocol_error', reason: "The server's answer is not a valid MCP message." };
}

/** A tool as an MCP server lists it: `inputSchema` is the JSON Schema of its arguments. */
export interface McpToolDescriptor {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The server says a call only reads (MCP's `readOnlyHint`): running it again changes nothing. */
  readOnlyHint?: boolean;
  /** The server says a second call with the same arguments has no further effect (`idempotentHint`). */
  idempotentHint?: boolean;
}

/** What a tool call answered, as text items (other content kinds are described in text). */
export interface McpToolOutput {
  isError: boolean;
  content: { type: 'text'; text: string }[];
}

/** Where reading a tool listing stops: past this many tools, or this many bytes of their JSON. */
export interface McpListingLimits {
  maxTools: number;
  maxBytes: number;
}

/** A connection to one MCP server, remote or in process: the same client either way. */
export interface McpSession {
  /** Every page of the listing; with `limits`, rejects with `McpAnswerTooLarge` once a page passes them. */
  listTools(signal?: AbortSignal, limits?: McpListingLimits): Promise<McpToolDescriptor[]>;
  /** Rejects with `McpCallTimeout` after `timeoutMs`, and with the signal's reason when it aborts. */
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpToolOutput>;
  /** The version the server declared when the session opened (`serverInfo.version`). */
  serverVersion(): string | null;
  close(): Promise<void>;
}

/**
 * A remote server could not be reached, refused us, or answered what we do not accept; `message`
 * says why, for the user.
 */
export class McpConnectionError extends Error {
  constructor(
    readonly code: 'forbidden_address' | 'unreachable' | 'protocol_error',
    message: string,
  ) {
    super(message);
  }
}

/** A server's answer passed a limit; it was read no further than the limit. */
export class McpAnswerTooLarge extends McpConnectionError {
  constructor(message: string) {
    super('protocol_error', message);
  }
}

/** A tool call did not answer in time. */
export class McpCallTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The tool did not answer within ${timeoutMs} ms.`);
  }
}

/** A remote server's address and the secret sent as `Authorization: Bearer`. */
export interface RemoteMcpTarget {
  url: string;
  sharedSecret: string | null;
}

/** Port: opens MCP sessions. Remote URLs are checked against private networks after DNS resolution. */
export abstract class McpConnector {
  abstract connectRemote(target: RemoteMcpTarget, signal?: AbortSignal): Promise<McpSession>;
}

export const TAG_KINDS = ['standard', 'protected'] as const;
export type TagKind = (typeof TAG_KINDS)[number];

export interface Tag {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  kind: TagKind;
}

export interface Skill {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  description: string;
  createdAt: Date;
}

/** A tool as the remote server listed it at its last synchronisation. */
export interface RemoteTool {
  name: string;
  description: string;
  /** The JSON Schema of the tool's arguments. */
  inputSchema: Record<string, unknown>;
  /** The server's hints that a call may be repeated safely (see `McpToolDescriptor`). */
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
}

/** What the last synchronisation found: the tools, or why there are none. */
export interface ToolSync {
  tools: RemoteTool[];
  lastSyncedAt: Date;
  /** Null when it succeeded. */
  lastSyncError: string | null;
  /** The version the server declared (`serverInfo.version`), as `serverVersionOf` keeps it. */
  serverVersion: string | null;
}

export interface RemoteMcpServer {
  id: number;
  sId: string;
  workspaceId: number;
  name: string;
  url: string;
  description: string;
  /** Sent as `Authorization: Bearer`; never shown. */
  sharedSecret: string | null;
  /** Listed by the last synchronisation; empty when it failed. */
  tools: RemoteTool[];
  /** When the last synchronisation was tried; null before the first. */
  lastSyncedAt: Date | null;
  lastSyncError: string | null;
  /** Declared by the server at its last successful synchronisation; null when none did. */
  serverVersion: string | null;
  createdAt: Date;
}

export const SERVER_VERSION_MAX = 64;

/**
 * A server's declared version as shown to members: the server chooses it, so it is kept without
 * control or invisible characters and cut to `SERVER_VERSION_MAX` characters; null if nothing is left.
 */
export function serverVersionOf(declared: string | null | undefined): string | null {
  const visible = [...(declared ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim()]
    .slice(0, SERVER_VERSION_MAX)
    .join('');
  return visible.length > 0 ? visible : null;
}

/**
 * Which of a view's tools wait for a user's approval before they run: none, all, or those named
 * (as the server lists them; a name the server does not list matches nothing until it does).
 */
export type RequireApproval = 'never' | 'always' | string[];

export interface McpServerView {
  id: number;
  sId: string;
  workspaceId: number;
  mcpServerId: number;
  spaceId: number;
  requireApproval: RequireApproval;
  createdAt: Date;
  /** Its last change (of its approvals). */
  updatedAt: Date;
}

export const TAG_NAME_MAX = 64;
export const SKILL_NAME_MAX = 100;
export const SKILL_DESCRIPTION_MAX = 1_000;
export const MCP_SERVER_NAME_MAX = 100;
export const MCP_SERVER_DESCRIPTION_MAX = 1_000;
export const MCP_SHARED_SECRET_MAX = 1_024;
export const TOOL_NAME_MAX = 128;
export const REQUIRE_APPROVAL_TOOLS_MAX = 256;

/**
 * Why a remote server's URL cannot be stored, or null. Every member reads the URL, so it must not
 * carry a user name or password; a secret goes in `sharedSecret`, which is never shown.
 */
export function remoteServerUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'url: must be an http(s) URL.';
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return (
      'url: must not contain a user name or password (every member can read the URL); ' +
      'send a secret as sharedSecret, which is never shown.'
    );
  }
  return null;
}

/** Why a value is not a `RequireApproval`, or null when it is one. */
export function requireApprovalProblem(value: unknown): string | null {
  if (value === 'never' || value === 'always') return null;
  if (!Array.isArray(value)) return 'must be "never", "always" or a list of tool names';
  if (value.length === 0) return 'must list at least one tool name (or be "never")';
  if (value.length > REQUIRE_APPROVAL_TOOLS_MAX) {
    return `must list at most ${REQUIRE_APPROVAL_TOOLS_MAX} tool names`;
  }
  const valid = (name: unknown) =>
    typeof name === 'string' && name.length > 0 && name.length <= TOOL_NAME_MAX && !/\p{Cc}/u.test(name);
  if (!value.every(valid)) {
    return `must list tool names of 1 to ${TOOL_NAME_MAX} characters without control characters`;
  }
  if (new Set(value).size !== value.length) return 'lists a tool name more than once';
  return null;
}

/** What one synchronisation keeps of a server's tool list; a longer or larger list fails it. */
export const REMOTE_TOOLS_MAX = 512;
export const REMOTE_TOOLS_JSON_MAX_BYTES = 1_048_576;

/** U+0000 or a lone UTF-16 surrogate: jsonb refuses both. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function storable(value: unknown): boolean {
  if (typeof value === 'string') return !UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.every(storable);
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => !UNSTORABLE.test(key) && storable(item));
  }
  return true;
}

/** Why a server's tool list cannot be kept (too long, too large, unstorable text), or null. */
export function toolListProblem(tools: RemoteTool[]): string | null {
  if (tools.length > REMOTE_TOOLS_MAX) {
    return `The server lists ${tools.length} tools; at most ${REMOTE_TOOLS_MAX} are kept.`;
  }
  const bytes = new TextEncoder().encode(JSON.stringify(tools)).length;
  if (bytes > REMOTE_TOOLS_JSON_MAX_BYTES) {
    return `The server's tool list takes ${bytes} bytes; at most ${REMOTE_TOOLS_JSON_MAX_BYTES} are kept.`;
  }
  if (!storable(tools)) return "The server's tool list contains a NUL character or an unpaired surrogate.";
  return null;
}

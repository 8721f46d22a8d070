import { nameCharacterProblem } from 'src/platform/text/names';

/**
 * A tool server a member's client (Dust's extension or CLI) lends to that member's runs: it lives
 * while its client sends heartbeats, and its tools are called through the client's polls.
 */
export interface ClientMcpServer {
  id: number;
  sId: string;
  workspaceId: number;
  userId: number;
  name: string;
  expiresAt: Date;
}

/** Registered servers one member may hold at once in a workspace (a browser and a CLI or two each). */
export const CLIENT_MCP_SERVERS_PER_MEMBER = 16;
/** The bounds of `@dust-tt/client`'s `ClientSideMCPServerNameSchema`. */
export const CLIENT_MCP_SERVER_NAME_MIN = 5;
export const CLIENT_MCP_SERVER_NAME_MAX = 30;

/** Why `name` cannot name a client-side server, or null. */
export function clientServerNameProblem(name: string): string | null {
  const length = [...name].length;
  if (length < CLIENT_MCP_SERVER_NAME_MIN || length > CLIENT_MCP_SERVER_NAME_MAX) {
    return `serverName must be ${CLIENT_MCP_SERVER_NAME_MIN} to ${CLIENT_MCP_SERVER_NAME_MAX} characters long; got ${length}.`;
  }
  const problem = nameCharacterProblem(name);
  return problem && `serverName ${problem}.`;
}

/** What the run is told when a server went away while one of its calls waited. */
export function droppedServerText(name: string, timeoutMs: number): string {
  return `The client-side MCP server "${name}" was dropped: its client sent no heartbeat for ${Math.round(timeoutMs / 1000)} s, so the call got no answer.`;
}

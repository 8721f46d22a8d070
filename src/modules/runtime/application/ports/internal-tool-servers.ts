import type { Caller } from 'src/platform/auth/caller';
import type { McpSession } from 'src/platform/mcp/mcp-session';

/** Who an internal tool acts for, and what it may ask of the run that calls it. */
export interface InternalToolContext {
  /** The run's caller: the author of the message the agent answers, with their access as it is now. */
  caller: Caller;
  conversationSId: string;
  /** The agent whose run calls the tool. */
  agentSId: string;
  /** 0 for a run answering a message; each `run_agent` level adds one. */
  depth: number;
  /** Runs another agent the caller can read on `query`, to its final answer, one level deeper. */
  askAgent(agentSId: string, query: string, signal: AbortSignal): Promise<string>;
}

/** Port: the internal tool servers, served in process behind the same MCP client as remote ones. */
export abstract class InternalToolServers {
  /** A session on the named server for one run; its tools act for `context`. */
  abstract open(name: string, context: InternalToolContext): Promise<McpSession>;
}

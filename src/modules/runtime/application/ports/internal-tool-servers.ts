import type { Caller } from 'src/platform/auth/caller';
import type { McpSession } from 'src/platform/mcp/mcp-session';
import type { RunTokens } from 'src/modules/runtime/application/ports/run-tokens';
import type { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';

/** Who an internal tool acts for, and what it may ask of the run that calls it. */
export interface InternalToolContext {
  /** The run's caller: the author of the message the agent answers, with their access as it is now. */
  caller: Caller;
  conversationSId: string;
  /** The agent whose run calls the tool. */
  agentSId: string;
  /** 0 for a run answering a message; each `run_agent` level adds one. */
  depth: number;
  /** Where a tool records the restricted spaces whose data its output holds (shared with asked agents). */
  dataSpaces: RunDataSpaces;
  /** Runs another agent the caller can read on `query`, to its final answer, one level deeper. */
  askAgent(agentSId: string, query: string, signal: AbortSignal): Promise<string>;
  /** The run's tokens, which a tool's own model call reserves from and is counted in. */
  tokens: RunTokens;
}

/** Port: the internal tool servers, served in process behind the same MCP client as remote ones. */
export abstract class InternalToolServers {
  /** A session on the named server for one run; its tools act for `context`. */
  abstract open(name: string, context: InternalToolContext): Promise<McpSession>;
}

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentsService } from 'src/modules/agents/agents.api';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';

export interface RunAgentServerDeps {
  agents: AgentsService;
  /** How deep `run_agent` may nest (`tools.runAgentMaxDepth`). */
  maxDepth: number;
  log: OperatorLog;
}

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const toolError = (message: string): CallToolResult => ({ ...text(message), isError: true });

/** A tool that asks another agent of the workspace, one the run's caller can use, and returns its answer. */
export function runAgentServer(deps: RunAgentServerDeps, context: InternalToolContext): McpServer {
  const server = new McpServer({ name: 'run_agent', version: '1.0.0' });
  server.registerTool(
    'run_agent',
    {
      description:
        'Asks another agent of the workspace a question and returns its final answer. Give the agent ' +
        'everything it needs in the query: it does not see this conversation.',
      inputSchema: {
        agentId: z.string().min(1).max(64).describe('The sId of the agent to ask, e.g. "a1B2c3D4e5".'),
        query: z.string().min(1).max(100_000).describe('The question or task for that agent.'),
      },
    },
    async ({ agentId, query }, extra) => {
      if (context.depth + 1 > deps.maxDepth) {
        return toolError(
          `run_agent cannot go deeper: agents may ask agents at most ${deps.maxDepth} level(s) deep (depth limit reached).`,
        );
      }
      // As a mention: a live agent the caller can read, else nothing is said about it.
      const [found] = await deps.agents.describe(context.caller, [agentId]);
      if (!found || !found.canRead || found.agent.status !== 'active') {
        return toolError(`No agent "${agentId}" that you can use exists in this workspace.`);
      }
      try {
        return text(await context.askAgent(agentId, query, extra.signal));
      } catch (error) {
        if (extra.signal.aborted) throw error;
        deps.log.warn(
          'RunAgentToolServer',
          { err: error, agentId },
          'An agent asked through run_agent failed',
        );
        return toolError(`The agent "${found.agent.name}" could not answer: ${(error as Error).message}`);
      }
    },
  );
  return server;
}

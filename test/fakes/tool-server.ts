import { Metrics } from 'src/platform/observability/metrics';
import { RunTelemetry } from 'src/modules/runtime/application/run-telemetry';
import type { McpSession, McpToolDescriptor, McpToolOutput } from 'src/platform/mcp/mcp-session';
import type { InternalToolContext } from 'src/modules/runtime/application/ports/internal-tool-servers';
import { OfferedTool, RunToolset, RunToolsService } from 'src/modules/runtime/application/run-tools.service';
import type { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import type { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';

/** A tool of the fake server: what it answers, and whether a call waits for approval. */
export interface FakeTool {
  name: string;
  needsApproval?: boolean;
  /** Its answer; a promise is awaited, and `signal` is the call's. */
  answer?: (args: Record<string, unknown>, signal: AbortSignal) => string | Promise<string>;
  /** It says a call may be repeated safely (MCP's `idempotentHint`). */
  idempotent?: boolean;
  /** The restricted spaces whose data its answer holds (sIds). */
  readsSpaces?: string[];
}

/**
 * One tool server, `vault`, offered to every run: its tools answer in memory and every call is
 * kept, so a spec tells which calls ran. `tools` opens it as a run's toolset, as `RunToolsService` does.
 */
export class FakeToolServer {
  readonly calls: { tool: string; args: Record<string, unknown> }[] = [];

  constructor(private readonly definitions: FakeTool[]) {}

  readonly tools = {
    open: async (
      _run: unknown,
      context: Omit<InternalToolContext, 'caller' | 'agentSId'>,
      budget: RunTreeBudget,
    ): Promise<RunToolset> => {
      const session = this.session(context.dataSpaces);
      const offered: OfferedTool[] = this.definitions.map((tool) => ({
        functionName: `vault__${tool.name}`,
        mcpServerName: 'vault',
        server: { mcpServerId: 'mcp_vault', internalMcpServerName: null },
        tool: this.descriptor(tool),
        needsApproval: tool.needsApproval ?? false,
        session: async () => session,
      }));
      return new RunToolset(offered, [], [], context.dataSpaces, budget, new RunTelemetry(new Metrics()));
    },
  } satisfies Pick<RunToolsService, 'open'> as unknown as RunToolsService;

  /** A session of one run: what its tools read joins the run's restricted spaces. */
  private session(dataSpaces: RunDataSpaces): McpSession {
    return {
      listTools: async () => this.definitions.map((tool) => this.descriptor(tool)),
      callTool: async (name, args, { signal }): Promise<McpToolOutput> => {
        this.calls.push({ tool: name, args });
        const tool = this.definitions.find((candidate) => candidate.name === name);
        dataSpaces.add(tool?.readsSpaces ?? []);
        const text = (await tool?.answer?.(args, signal)) ?? `${name} done`;
        return { isError: false, content: [{ type: 'text', text }] };
      },
      serverVersion: () => '1.0.0',
      close: async () => undefined,
    };
  }

  private descriptor(tool: FakeTool): McpToolDescriptor {
    return {
      name: tool.name,
      description: `The ${tool.name} tool.`,
      inputSchema: { type: 'object' },
      ...(tool.idempotent && { idempotentHint: true }),
    };
  }
}

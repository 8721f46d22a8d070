import { Injectable } from '@nestjs/common';
import { McpConnector, McpSession, McpToolDescriptor, McpToolOutput } from 'src/platform/mcp/mcp-session';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { RunToolServer, RunToolsetsService } from 'src/modules/agents/application/run-toolsets.service';
import { InternalServersService } from 'src/modules/agents/application/internal-servers.service';
import type { Run } from 'src/modules/runtime/application/run';
import {
  InternalToolContext,
  InternalToolServers,
} from 'src/modules/runtime/application/ports/internal-tool-servers';
import type { ModelTool } from 'src/modules/runtime/application/ports/model-provider';
import type { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';
import type { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { RunTelemetry } from 'src/modules/runtime/application/run-telemetry';
import { functionNames } from 'src/modules/runtime/domain/tool-names';

/** A tool offered to a run's model, with where to call it. */
export interface OfferedTool {
  functionName: string;
  mcpServerName: string;
  serverKind: 'internal' | 'remote';
  tool: McpToolDescriptor;
  needsApproval: boolean;
  session: () => Promise<McpSession>;
}

/** A toolset entry that offers nothing to this run, and why. */
export interface UnavailableServer {
  name: string;
  reason: string;
}

/**
 * The tools of one run: every tool of every server its agent's toolset resolves to now, named
 * `<server>__<tool>`. Remote servers are connected on first call; sessions close with the run.
 * Every call is spent from the budget of the run's tree.
 */
export class RunToolset {
  private readonly byName: Map<string, OfferedTool>;

  constructor(
    readonly offered: OfferedTool[],
    readonly unavailable: UnavailableServer[],
    private readonly sessions: Promise<McpSession>[],
    /** The restricted spaces whose data the run's tools brought in so far. */
    readonly dataSpaces: RunDataSpaces,
    private readonly budget: RunTreeBudget,
    private readonly telemetry: RunTelemetry,
  ) {
    this.byName = new Map(offered.map((tool) => [tool.functionName, tool]));
  }

  get modelTools(): ModelTool[] {
    return this.offered.map((offered) => ({
      name: offered.functionName,
      description: offered.tool.description,
      parameters: offered.tool.inputSchema,
    }));
  }

  find(functionName: string): OfferedTool | undefined {
    return this.byName.get(functionName);
  }

  async call(
    offered: OfferedTool,
    args: Record<string, unknown>,
    options: { signal: AbortSignal; timeoutMs: number },
  ): Promise<McpToolOutput> {
    this.budget.spend('tool_call');
    const server = { name: offered.mcpServerName, kind: offered.serverKind };
    return this.telemetry.toolCall(server, offered.tool.name, async () => {
      const session = await offered.session();
      return session.callTool(offered.tool.name, args, options);
    });
  }

  async close(): Promise<void> {
    await Promise.allSettled(
      this.sessions.map(async (opening) => (await opening.catch(() => null))?.close()),
    );
  }
}

function needsApproval(requireApproval: 'never' | 'always' | string[], toolName: string): boolean {
  if (requireApproval === 'never') return false;
  if (requireApproval === 'always') return true;
  return requireApproval.includes(toolName);
}

/** Opens the toolset of a run, with its caller's access as it is now. */
@Injectable()
export class RunToolsService {
  constructor(
    private readonly toolsets: RunToolsetsService,
    private readonly internalServers: InternalServersService,
    private readonly internal: InternalToolServers,
    private readonly connector: McpConnector,
    private readonly log: OperatorLog,
    private readonly telemetry: RunTelemetry,
  ) {}

  async open(
    run: Pick<Run, 'caller' | 'agent'>,
    context: Omit<InternalToolContext, 'caller' | 'agentSId'>,
    budget: RunTreeBudget,
  ): Promise<RunToolset> {
    const servers = await this.toolsets.resolve(run.caller, run.agent.actions);
    const unavailable: UnavailableServer[] = [];
    const sessions: Promise<McpSession>[] = [];
    const candidates: Omit<OfferedTool, 'functionName'>[] = [];
    for (const server of servers) {
      const listed = await this.listed(server, run, context, sessions);
      if ('reason' in listed) unavailable.push({ name: server.name, reason: listed.reason });
      else candidates.push(...listed.tools);
    }
    const names = functionNames(
      candidates.map((candidate) => ({ server: candidate.mcpServerName, tool: candidate.tool.name })),
    );
    const offered = candidates.map((candidate, index) => ({ ...candidate, functionName: names[index] }));
    return new RunToolset(offered, unavailable, sessions, context.dataSpaces, budget, this.telemetry);
  }

  /** A server's tools, or why it offers none to this run. */
  private async listed(
    server: RunToolServer,
    run: Pick<Run, 'caller' | 'agent'>,
    context: Omit<InternalToolContext, 'caller' | 'agentSId'>,
    sessions: Promise<McpSession>[],
  ): Promise<{ tools: Omit<OfferedTool, 'functionName'>[] } | { reason: string }> {
    switch (server.kind) {
      case 'unavailable':
        return { reason: server.reason };
      case 'internal': {
        const reason = this.internalServers.unavailableReason(server.name);
        if (reason) return { reason };
        const opening = this.internal.open(server.name, {
          ...context,
          caller: run.caller,
          agentSId: run.agent.sId,
        });
        sessions.push(opening);
        try {
          const session = await opening;
          const tools = await session.listTools();
          return {
            tools: tools.map((tool) => ({
              mcpServerName: server.name,
              serverKind: 'internal' as const,
              tool,
              needsApproval: false,
              session: () => opening,
            })),
          };
        } catch (error) {
          this.log.error(RunToolsService.name, { err: error }, 'An internal tool server failed to open');
          return { reason: `The internal tool server "${server.name}" failed to start.` };
        }
      }
      case 'remote': {
        let opening: Promise<McpSession> | null = null;
        const session = () => {
          if (!opening) {
            opening = this.connector.connectRemote(server.target);
            sessions.push(opening);
          }
          return opening;
        };
        return {
          tools: server.tools.map((tool) => ({
            mcpServerName: server.name,
            serverKind: 'remote' as const,
            tool,
            needsApproval: needsApproval(server.requireApproval, tool.name),
            session,
          })),
        };
      }
    }
  }
}

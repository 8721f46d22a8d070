import { Injectable } from '@nestjs/common';
import { McpConnector, McpSession, McpToolDescriptor, McpToolOutput } from 'src/platform/mcp/mcp-session';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { RunToolServer, RunToolsetsService, InternalServersService } from 'src/modules/agents/agents.api';
import type { Run } from 'src/modules/runtime/application/run';
import type { HistoryEntry } from 'src/modules/runtime/application/ports/conversation-history';
import {
  InternalToolContext,
  InternalToolServers,
} from 'src/modules/runtime/application/ports/internal-tool-servers';
import type { ModelTool } from 'src/modules/runtime/application/ports/model-provider';
import type { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';
import type { RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';
import { RunTelemetry } from 'src/modules/runtime/application/run-telemetry';
import { functionNames } from 'src/modules/runtime/domain/tool-names';
import { ClientMcpServersService } from 'src/modules/runtime/application/client-mcp-servers.service';
import { ClientMcpConnector } from 'src/modules/runtime/application/ports/client-mcp-store';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** Client-side servers a user message lends to its runs: its author's, by the ids it named. */
export interface LentServers {
  owner: { workspaceId: number; userId: number };
  serverIds: string[];
}

/** What one listing of a client-side server may hold, as a remote server's listing. */
const CLIENT_LISTING_LIMITS = { maxTools: 512, maxBytes: 1024 * 1024 };

/** A tool offered to a run's model, with where to call it. */
export interface OfferedTool {
  functionName: string;
  mcpServerName: string;
  /** The remote server's sId, or the internal server's name: what its calls record. */
  server:
    | { mcpServerId: string; internalMcpServerName: null }
    | { mcpServerId: null; internalMcpServerName: string };
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
    const server = {
      name: offered.mcpServerName,
      kind: offered.server.internalMcpServerName === null ? ('remote' as const) : ('internal' as const),
    };
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

/** What the message a run answers asks of its tools (its context, as its client gave it). */
export interface AskedTools {
  /** Tool server views whose tools the run gets besides its agent's. */
  viewSIds: string[];
  /** Its calls run without waiting for approval: the member the run acts for, who would approve, said so. */
  skipApproval: boolean;
}

export const NOTHING_ASKED: AskedTools = { viewSIds: [], skipApproval: false };

/**
 * What the user message `parentMessageId` (among a run's history) asks of the tools of a run acting
 * for `userId`. Skipping approval holds only when that member wrote the message: the approver of a
 * run's calls is the member it acts for (a retry by another member waits for theirs).
 */
export function askedBy(
  history: readonly HistoryEntry[],
  parentMessageId: number,
  userId: number,
): AskedTools {
  // Fragments are numbered apart from messages: only a user message of that id is the parent.
  const parent = history.find((message) => message.type === 'user_message' && message.id === parentMessageId);
  if (parent?.type !== 'user_message') return NOTHING_ASKED;
  return {
    viewSIds: parent.context.selectedMCPServerViewIds ?? [],
    skipApproval: parent.context.skipToolsValidation === true && parent.userId === userId,
  };
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
    private readonly clientServers: ClientMcpServersService,
    private readonly clientConnector: ClientMcpConnector,
    private readonly config: RuntimeConfig,
    private readonly telemetry: RunTelemetry,
  ) {}

  async open(
    run: Pick<Run, 'caller' | 'agent'>,
    context: Omit<InternalToolContext, 'caller' | 'agentSId'>,
    budget: RunTreeBudget,
    asked: AskedTools = NOTHING_ASKED,
    lent: LentServers | null = null,
  ): Promise<RunToolset> {
    const [own, selected] = await Promise.all([
      this.toolsets.resolve(run.caller, run.agent.actions),
      this.toolsets.selected(run.caller, asked.viewSIds),
    ]);
    // A selected view of a server the agent has already adds nothing.
    const ownSIds = new Set(own.flatMap((server) => (server.kind === 'remote' ? [server.mcpServerSId] : [])));
    const servers = [
      ...own,
      ...selected.filter((server) => server.kind !== 'remote' || !ownSIds.has(server.mcpServerSId)),
    ];
    const unavailable: UnavailableServer[] = [];
    const sessions: Promise<McpSession>[] = [];
    const candidates: Omit<OfferedTool, 'functionName'>[] = [];
    for (const server of servers) {
      const listed = await this.listed(server, run, context, sessions, asked.skipApproval);
      if ('reason' in listed) unavailable.push({ name: server.name, reason: listed.reason });
      else candidates.push(...listed.tools);
    }
    if (lent && lent.serverIds.length > 0) {
      if (lent.owner.userId === run.caller.userId) {
        candidates.push(...(await this.lentTools(lent, sessions, unavailable, asked.skipApproval)));
      } else {
        // Its calls would wait for the approval of the member the run acts for, not the lender's.
        for (const serverId of lent.serverIds) {
          unavailable.push({
            name: serverId,
            reason: `The client-side MCP server ${serverId} is lent to runs acting for the message's author only.`,
          });
        }
      }
    }
    const names = functionNames(
      candidates.map((candidate) => ({ server: candidate.mcpServerName, tool: candidate.tool.name })),
    );
    const offered = candidates.map((candidate, index) => ({ ...candidate, functionName: names[index] }));
    return new RunToolset(offered, unavailable, sessions, context.dataSpaces, budget, this.telemetry);
  }

  /**
   * The tools of the live client-side servers a message lends, listed by each server through its
   * client's polls within `CLIENT_MCP_CONNECT_TIMEOUT_MS`; a server that is gone, or silent, gives none.
   * Each call waits for approval unless the message skips validation: Dust gives a client-side
   * server's tools its "low" stake, which asks the user.
   */
  private async lentTools(
    lent: LentServers,
    sessions: Promise<McpSession>[],
    unavailable: UnavailableServer[],
    skipApproval: boolean,
  ): Promise<Omit<OfferedTool, 'functionName'>[]> {
    const live = await this.clientServers.liveOf(lent.owner, lent.serverIds);
    for (const serverId of lent.serverIds) {
      if (!live.some((server) => server.sId === serverId)) {
        unavailable.push({
          name: serverId,
          reason: `The client-side MCP server ${serverId} is not registered by the message's author, or was dropped.`,
        });
      }
    }
    const listings = await Promise.all(
      live.map(async (server) => {
        const signal = AbortSignal.timeout(this.config.clientServers.connectTimeoutMs);
        const opening = this.clientConnector.connect(server, signal);
        sessions.push(opening);
        try {
          const tools = await (await opening).listTools(signal, CLIENT_LISTING_LIMITS);
          return tools.map((tool) => ({
            mcpServerName: server.name,
            // What its calls record: the lent server's id, as Dust records a client-side server.
            server: { mcpServerId: server.sId, internalMcpServerName: null },
            tool,
            needsApproval: !skipApproval,
            session: () => opening,
          }));
        } catch (error) {
          const why = error instanceof Error ? error.message : String(error);
          unavailable.push({
            name: server.name,
            reason: `The client-side MCP server "${server.name}" listed no tools: ${why}`,
          });
          return [];
        }
      }),
    );
    return listings.flat();
  }

  /** A server's tools, or why it offers none to this run. */
  private async listed(
    server: RunToolServer,
    run: Pick<Run, 'caller' | 'agent'>,
    context: Omit<InternalToolContext, 'caller' | 'agentSId'>,
    sessions: Promise<McpSession>[],
    skipApproval: boolean,
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
              server: { mcpServerId: null, internalMcpServerName: server.name },
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
            server: { mcpServerId: server.mcpServerSId, internalMcpServerName: null },
            tool,
            needsApproval: !skipApproval && needsApproval(server.requireApproval, tool.name),
            session,
          })),
        };
      }
    }
  }
}

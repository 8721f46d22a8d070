import { Injectable } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Clock } from 'src/platform/clock/clock';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { connectInProcess } from 'src/platform/mcp/in-process-mcp';
import { McpConnectionError, McpSession } from 'src/platform/mcp/mcp-session';
import { AgentsConfig, AgentsService, InternalServersService } from 'src/modules/agents/agents.api';
import { DocumentSearchService } from 'src/modules/data-sources/data-sources.api';
import { AgentSchedulesService } from 'src/modules/triggers/triggers.api';
import { WakeUpsService } from 'src/modules/wakeups/wakeups.api';
import {
  InternalToolContext,
  InternalToolServers,
} from 'src/modules/runtime/application/ports/internal-tool-servers';
import { ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';
import { includeDataServer } from 'src/modules/runtime/infrastructure/internal-servers/include-data.server';
import { reasoningServer } from 'src/modules/runtime/infrastructure/internal-servers/reasoning.server';
import { runAgentServer } from 'src/modules/runtime/infrastructure/internal-servers/run-agent.server';
import { searchServer } from 'src/modules/runtime/infrastructure/internal-servers/search.server';
import { triggersServer } from 'src/modules/runtime/infrastructure/internal-servers/triggers.server';
import { wakeUpsServer } from 'src/modules/runtime/infrastructure/internal-servers/wake-ups.server';

/**
 * The internal tool servers, served in this process over the SDK's in-memory transport. Each `open`
 * builds a fresh server whose tools close over the run's context, so nothing is shared between runs.
 */
@Injectable()
export class InProcessInternalToolServers extends InternalToolServers {
  private readonly builders: Record<string, (context: InternalToolContext) => McpServer> = {
    wake_ups: (context) =>
      wakeUpsServer({ wakeUps: this.wakeUps, clock: this.clock, log: this.log }, context),
    triggers: (context) => triggersServer({ schedules: this.schedules, log: this.log }, context),
    run_agent: (context) =>
      runAgentServer(
        { agents: this.agents, maxDepth: this.config.tools.runAgentMaxDepth, log: this.log },
        context,
      ),
    reasoning: (context) =>
      reasoningServer(
        {
          models: this.models,
          modelId: this.agentsConfig.reasoningModelId ?? '',
          maxOutputTokens: this.config.modelCalls.maxOutputTokens,
        },
        context,
      ),
    search: (context) => searchServer(this.documents, context),
    include_data: (context) => includeDataServer(this.documents, context),
  };

  constructor(
    private readonly offered: InternalServersService,
    private readonly wakeUps: WakeUpsService,
    private readonly schedules: AgentSchedulesService,
    private readonly agents: AgentsService,
    private readonly documents: DocumentSearchService,
    private readonly models: ModelProviders,
    private readonly config: RuntimeConfig,
    private readonly agentsConfig: AgentsConfig,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {
    super();
  }

  /** Throws `McpConnectionError` with the reason when the server is not offered here. */
  async open(name: string, context: InternalToolContext): Promise<McpSession> {
    const reason = this.offered.unavailableReason(name);
    const build = Object.hasOwn(this.builders, name) ? this.builders[name] : undefined;
    if (reason !== null || !build) {
      throw new McpConnectionError(
        'unreachable',
        reason ?? `The internal tool server "${name}" is not served by this process (not_configured).`,
      );
    }
    return connectInProcess(build(context));
  }
}

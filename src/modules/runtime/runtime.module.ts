import { Module } from '@nestjs/common';
import { AgentsModule } from 'src/modules/agents/agents.api';
import { DataSourcesModule } from 'src/modules/data-sources/data-sources.api';
import { FilesModule } from 'src/modules/files/files.api';
import { IdentityModule } from 'src/modules/identity/identity.api';
import { TriggersModule } from 'src/modules/triggers/triggers.api';
import { WakeUpsModule } from 'src/modules/wakeups/wakeups.api';
import { AgentActionsService } from 'src/modules/runtime/application/agent-actions.service';
import { AgentRunsService } from 'src/modules/runtime/application/agent-runs.service';
import { ModelHistoryService } from 'src/modules/runtime/application/model-history.service';
import { RunActionsReader } from 'src/modules/runtime/application/run-actions.reader';
import { RunOutcomesService } from 'src/modules/runtime/application/run-outcomes.service';
import { RunRecoveryService } from 'src/modules/runtime/application/run-recovery.service';
import { RunRequestsService } from 'src/modules/runtime/application/run-requests.service';
import { RunRequestQueue } from 'src/modules/runtime/application/ports/run-requests';
import { RunSlots } from 'src/modules/runtime/application/run-slots';
import { RunTokensService } from 'src/modules/runtime/application/run-tokens';
import { RunToolsService } from 'src/modules/runtime/application/run-tools.service';
import { RunTelemetry } from 'src/modules/runtime/application/run-telemetry';
import { SubAgentRunsService } from 'src/modules/runtime/application/sub-agent-runs.service';
import { ToolCallApprovalsService } from 'src/modules/runtime/application/tool-call-approvals.service';
import { ToolCallsService } from 'src/modules/runtime/application/tool-calls.service';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { InternalToolServers } from 'src/modules/runtime/application/ports/internal-tool-servers';
import { InProcessInternalToolServers } from 'src/modules/runtime/infrastructure/internal-tool-servers';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { ConfiguredModelProviders } from 'src/modules/runtime/infrastructure/model-providers';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';
import { TypeormAgentRunRepository } from 'src/modules/runtime/infrastructure/typeorm-agent-run.repository';
import { TypeormRunUsageTotals } from 'src/modules/runtime/infrastructure/typeorm-run-usage-totals';
import { RunUsageTotals } from 'src/modules/runtime/application/ports/run-usage-totals';
import { TypeormRunRequestQueue } from 'src/modules/runtime/infrastructure/typeorm-run-requests';
import { AgentRunner } from 'src/modules/runtime/workers/agent-runner.worker';
import { ClientMcpServersService } from 'src/modules/runtime/application/client-mcp-servers.service';
import {
  ClientMcpConnector,
  ClientMcpNotices,
  ClientMcpStore,
} from 'src/modules/runtime/application/ports/client-mcp-store';
import { QueuedClientMcpConnector } from 'src/modules/runtime/infrastructure/client-mcp-connector';
import { PgClientMcpNotices } from 'src/modules/runtime/infrastructure/pg-client-mcp-notices';
import { TypeormClientMcpStore } from 'src/modules/runtime/infrastructure/typeorm-client-mcp.store';
import { ClientMcpServersController } from 'src/modules/runtime/http/client-mcp-servers.controller';
import { ClientMcpSweepWorker } from 'src/modules/runtime/workers/client-mcp-sweep.worker';

// RunActionsReader and ToolCallApprovalsService answer conversations' AnswerActions and
// ActionApprovalsService ports, RunUsageTotals usage's RunUsageRecords; usage answers
// WorkspaceTokenBudget, and conversations the runtime's AnswerSink, ConversationHistory and
// ConversationAccess (all bound in src/composition), so this module does not import conversations'.
@Module({
  imports: [AgentsModule, DataSourcesModule, FilesModule, IdentityModule, TriggersModule, WakeUpsModule],
  controllers: [ClientMcpServersController],
  providers: [
    ClientMcpServersService,
    ClientMcpSweepWorker,
    { provide: ClientMcpStore, useClass: TypeormClientMcpStore },
    { provide: ClientMcpNotices, useClass: PgClientMcpNotices },
    { provide: ClientMcpConnector, useClass: QueuedClientMcpConnector },
    AgentRunsService,
    AgentActionsService,
    ModelHistoryService,
    RunOutcomesService,
    RunRecoveryService,
    RunRequestsService,
    { provide: RunRequestQueue, useClass: TypeormRunRequestQueue },
    RunSlots,
    RunTokensService,
    RunToolsService,
    RunTelemetry,
    ToolCallsService,
    SubAgentRunsService,
    AgentRunner,
    LocalModelProvider,
    OpenAiModelProvider,
    { provide: ModelProviders, useClass: ConfiguredModelProviders },
    { provide: AgentRunRepository, useClass: TypeormAgentRunRepository },
    { provide: InternalToolServers, useClass: InProcessInternalToolServers },
    RunActionsReader,
    ToolCallApprovalsService,
    { provide: RunUsageTotals, useClass: TypeormRunUsageTotals },
  ],
  exports: [AgentRunner, RunActionsReader, ToolCallApprovalsService, RunUsageTotals],
})
export class RuntimeModule {}

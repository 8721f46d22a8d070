import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { AgentsModule } from 'src/modules/agents/agents.module';
import { IdentityModule } from 'src/modules/identity/identity.module';
import { AgentRunsService } from 'src/modules/runtime/application/agent-runs.service';
import { RunRecoveryService } from 'src/modules/runtime/application/run-recovery.service';
import { RunToolsService } from 'src/modules/runtime/application/run-tools.service';
import { SubAgentRunsService } from 'src/modules/runtime/application/sub-agent-runs.service';
import { ToolCallsService } from 'src/modules/runtime/application/tool-calls.service';
import { ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { RunStateRepository } from 'src/modules/runtime/application/ports/run-state.repository';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { ConfiguredModelProviders } from 'src/modules/runtime/infrastructure/model-providers';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';
import { TypeormRunStateRepository } from 'src/modules/runtime/infrastructure/typeorm-run-state.repository';
import { AgentRunner } from 'src/modules/runtime/workers/agent-runner.worker';

@Module({
  imports: [ConversationsModule, AgentsModule, IdentityModule],
  providers: [
    AgentRunsService,
    RunRecoveryService,
    RunToolsService,
    ToolCallsService,
    SubAgentRunsService,
    AgentRunner,
    LocalModelProvider,
    OpenAiModelProvider,
    { provide: ModelProviders, useClass: ConfiguredModelProviders },
    { provide: RunStateRepository, useClass: TypeormRunStateRepository },
  ],
  exports: [AgentRunner],
})
export class RuntimeModule {}

import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { AgentRunsService } from 'src/modules/runtime/application/agent-runs.service';
import { ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { RunStateRepository } from 'src/modules/runtime/application/ports/run-state.repository';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { ConfiguredModelProviders } from 'src/modules/runtime/infrastructure/model-providers';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';
import { TypeormRunStateRepository } from 'src/modules/runtime/infrastructure/typeorm-run-state.repository';
import { AgentRunner } from 'src/modules/runtime/workers/agent-runner.worker';

@Module({
  imports: [ConversationsModule],
  providers: [
    AgentRunsService,
    AgentRunner,
    LocalModelProvider,
    OpenAiModelProvider,
    { provide: ModelProviders, useClass: ConfiguredModelProviders },
    { provide: RunStateRepository, useClass: TypeormRunStateRepository },
  ],
  exports: [AgentRunner],
})
export class RuntimeModule {}

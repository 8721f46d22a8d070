import { Module } from '@nestjs/common';
import { ConversationsModule } from 'src/modules/conversations/conversations.module';
import { AgentRunner } from 'src/modules/runtime/application/agent-runner.service';
import { ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { ConfiguredModelProviders } from 'src/modules/runtime/infrastructure/model-providers';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';

@Module({
  imports: [ConversationsModule],
  providers: [
    AgentRunner,
    LocalModelProvider,
    OpenAiModelProvider,
    { provide: ModelProviders, useClass: ConfiguredModelProviders },
  ],
  exports: [AgentRunner],
})
export class RuntimeModule {}

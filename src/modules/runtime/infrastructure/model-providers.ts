import { Injectable } from '@nestjs/common';
import { ModelProvider, ModelProviders } from 'src/modules/runtime/application/ports/model-provider';
import { ModelProviderId } from 'src/kernel/agent-model';
import { RunTelemetry } from 'src/modules/runtime/application/run-telemetry';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';

@Injectable()
export class ConfiguredModelProviders extends ModelProviders {
  constructor(
    private readonly local: LocalModelProvider,
    private readonly openai: OpenAiModelProvider,
    private readonly telemetry: RunTelemetry,
  ) {
    super();
  }

  get(providerId: ModelProviderId): ModelProvider {
    return this.telemetry.observedModel(providerId, this.provider(providerId));
  }

  private provider(providerId: ModelProviderId): ModelProvider {
    switch (providerId) {
      case 'local':
        return this.local;
      case 'openai':
        return this.openai;
    }
  }
}

import { Injectable } from '@nestjs/common';
import {
  ModelProvider,
  ModelProviderId,
  ModelProviders,
} from 'src/modules/runtime/application/ports/model-provider';
import { LocalModelProvider } from 'src/modules/runtime/infrastructure/local-model.provider';
import { OpenAiModelProvider } from 'src/modules/runtime/infrastructure/openai-model.provider';

@Injectable()
export class ConfiguredModelProviders extends ModelProviders {
  constructor(
    private readonly local: LocalModelProvider,
    private readonly openai: OpenAiModelProvider,
  ) {
    super();
  }

  get(providerId: ModelProviderId): ModelProvider {
    switch (providerId) {
      case 'local':
        return this.local;
      case 'openai':
        return this.openai;
    }
  }
}

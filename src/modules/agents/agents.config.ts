import { ConfigSchema, configToken } from 'src/platform/config/config-schema';
import { duration, integer, list, text, url } from 'src/platform/config/variables';

const agentsConfig = ConfigSchema.of({
  openai: {
    baseUrl: url('OPENAI_BASE_URL', {
      protocols: ['http:', 'https:'],
      description:
        'OpenAI-compatible endpoint (`…/v1`) for agents whose model provider is `openai`. Unset: their runs fail with `model_provider_not_configured`.',
    }),
    apiKey: text('OPENAI_API_KEY', { description: 'Bearer key for `OPENAI_BASE_URL`.' }).requires(
      'OPENAI_BASE_URL',
    ),
    timeoutMs: duration('OPENAI_TIMEOUT_MS', {
      default: 60_000,
      description: 'Per-request timeout of the `openai` provider.',
    }).onlyWith('OPENAI_BASE_URL'),
    maxRetries: integer('OPENAI_MAX_RETRIES', {
      default: 2,
      min: 0,
      max: 10,
      description: 'Retries of a 429 / 5xx answer (exponential backoff, `Retry-After` honoured).',
    }).onlyWith('OPENAI_BASE_URL'),
    textOnlyModels: list('OPENAI_TEXT_ONLY_MODELS', {
      description:
        "Comma-separated model ids of `OPENAI_BASE_URL` that read no images: they get an attached image's title and type instead.",
    }).onlyWith('OPENAI_BASE_URL'),
  },
  reasoningModelId: text('REASONING_MODEL_ID', {
    description:
      'The model the internal `reasoning` server asks, on the `openai` provider; unset: `reasoning` is not offered.',
  }),
}).then(({ openai: { baseUrl, ...openai }, reasoningModelId }) => ({
  /** Null: the `openai` provider is not configured. */
  openai: baseUrl === null ? null : { ...openai, baseUrl: baseUrl.replace(/\/+$/, '') },
  reasoningModelId,
}));

/**
 * The model providers and internal tool servers an agent may name, as this service offers them.
 * Declared by agents, whose catalogue says what is offered; runtime, which runs them, reads it too.
 */
export abstract class AgentsConfig extends configToken(agentsConfig) {}

export type OpenAiSettings = NonNullable<AgentsConfig['openai']>;

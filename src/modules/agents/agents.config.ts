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
      description:
        'Timeout of one model call of the `openai` provider, its retries and their waits included (`model_timeout`).',
    }).onlyWith('OPENAI_BASE_URL'),
    firstByteTimeoutMs: duration('OPENAI_FIRST_BYTE_TIMEOUT_MS', {
      default: 30_000,
      description:
        'A request whose answer has not begun (no byte of its body) after this long is given up and retried; keep it above the longest a model may take to its first chunk (at or above `OPENAI_TIMEOUT_MS`: off). From the first byte on, only `OPENAI_TIMEOUT_MS` bounds the call.',
    }).onlyWith('OPENAI_BASE_URL'),
    maxRetries: integer('OPENAI_MAX_RETRIES', {
      default: 3,
      min: 0,
      max: 10,
      description:
        "Retries of one model call, made while none of its answer was streamed: a 429, 408, 409 or 5xx answer, a connection refused or broken, no first byte in time. A run's calls also share `RUN_MODEL_RETRY_BUDGET`.",
    }).onlyWith('OPENAI_BASE_URL'),
    retryBaseMs: integer('OPENAI_RETRY_BASE_MS', {
      default: 250,
      min: 1,
      max: 60_000,
      description:
        'Back-off of the retries: the n-th waits a random time from 0 to this × 2ⁿ⁻¹ (at most 32 × this), or longer when the endpoint asks (`Retry-After`, `retry-after-ms`).',
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

import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { AgentsConfig } from 'src/modules/agents/agents.config';

describe('AgentsConfig', () => {
  it('offers no openai provider and no reasoning model when nothing is set', () => {
    expect(AgentsConfig.from({})).toEqual({ openai: null, reasoningModelId: null });
  });

  it('reads the openai provider, trimming the base URL, and the models that read no images', () => {
    expect(
      AgentsConfig.from({
        OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1/',
        OPENAI_API_KEY: 'sk-x',
        OPENAI_TEXT_ONLY_MODELS: ' qwen2.5:7b, llama3.1:8b ,',
        REASONING_MODEL_ID: 'o3-mini',
      }),
    ).toEqual({
      openai: {
        baseUrl: 'http://127.0.0.1:11434/v1',
        apiKey: 'sk-x',
        timeoutMs: 60_000,
        firstByteTimeoutMs: 30_000,
        maxRetries: 3,
        retryBaseMs: 250,
        textOnlyModels: ['qwen2.5:7b', 'llama3.1:8b'],
      },
      reasoningModelId: 'o3-mini',
    });
  });

  it('does not read the settings of an openai provider that is not configured', () => {
    expect(AgentsConfig.from({ OPENAI_TIMEOUT_MS: 'never', OPENAI_MAX_RETRIES: 'many' }).openai).toBeNull();
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ OPENAI_BASE_URL: 'localhost:8080' }, /^OPENAI_BASE_URL must use http: or https:/],
    [{ OPENAI_API_KEY: 'sk-x' }, /^OPENAI_API_KEY is set but OPENAI_BASE_URL is not/],
    [
      { OPENAI_BASE_URL: 'http://llm:8080/v1', OPENAI_MAX_RETRIES: 'many' },
      /^OPENAI_MAX_RETRIES must be an integer between 0 and 10, got "many"\.$/,
    ],
    [
      { OPENAI_BASE_URL: 'http://llm:8080/v1', OPENAI_TIMEOUT_MS: '5' },
      /^OPENAI_TIMEOUT_MS must be a number of milliseconds/,
    ],
    [
      { OPENAI_BASE_URL: 'http://llm:8080/v1', OPENAI_FIRST_BYTE_TIMEOUT_MS: 'soon' },
      /^OPENAI_FIRST_BYTE_TIMEOUT_MS must be a number of milliseconds/,
    ],
    [
      { OPENAI_BASE_URL: 'http://llm:8080/v1', OPENAI_RETRY_BASE_MS: '0' },
      /^OPENAI_RETRY_BASE_MS must be an integer between 1 and 60000, got "0"\.$/,
    ],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => AgentsConfig.from(env)).toThrow(ConfigError);
      expect(() => AgentsConfig.from(env)).toThrow(message);
    });
  }
});

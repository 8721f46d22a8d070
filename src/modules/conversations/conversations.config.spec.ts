import { describe, expect, it } from '@jest/globals';
import { ConfigError } from 'src/platform/config/config-schema';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';

describe('ConversationsConfig', () => {
  it('applies defaults when nothing is set', () => {
    expect(ConversationsConfig.from({})).toEqual({
      v1HistoryMs: 600_000,
      contentFragmentBudgetBytes: 262_144,
      contentFragmentImageMaxBytes: 10 * 1024 * 1024,
    });
  });

  it('reads the public stream history and the content fragment budgets, images off with 0', () => {
    expect(
      ConversationsConfig.from({
        SSE_V1_HISTORY_MS: '60000',
        CONTENT_FRAGMENT_BUDGET_BYTES: '1024',
        CONTENT_FRAGMENT_IMAGE_BYTES: '0',
      }),
    ).toEqual({ v1HistoryMs: 60_000, contentFragmentBudgetBytes: 1024, contentFragmentImageMaxBytes: 0 });
  });

  const refused: [Record<string, string>, RegExp][] = [
    [{ SSE_V1_HISTORY_MS: 'ten minutes' }, /^SSE_V1_HISTORY_MS must be a number of milliseconds/],
    [
      { CONTENT_FRAGMENT_BUDGET_BYTES: '1023' },
      /^CONTENT_FRAGMENT_BUDGET_BYTES must be an integer between 1024 and 16777216, got "1023"\.$/,
    ],
    [
      { CONTENT_FRAGMENT_IMAGE_BYTES: '67108865' },
      /^CONTENT_FRAGMENT_IMAGE_BYTES must be an integer between 0/,
    ],
  ];
  for (const [env, message] of refused) {
    it(`refuses ${JSON.stringify(env)} with a line naming the variable`, () => {
      expect(() => ConversationsConfig.from(env)).toThrow(ConfigError);
      expect(() => ConversationsConfig.from(env)).toThrow(message);
    });
  }
});

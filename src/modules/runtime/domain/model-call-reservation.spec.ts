import { describe, expect, it } from '@jest/globals';
import {
  IMAGE_TOKENS,
  MESSAGE_TOKENS,
  ReservedRequest,
  UNCAPPED_OUTPUT_TOKENS,
  reservedTokens,
} from 'src/modules/runtime/domain/model-call-reservation';

const request = (overrides: Partial<ReservedRequest> = {}): ReservedRequest => ({
  instructions: '',
  messages: [],
  tools: [],
  maxOutputTokens: 1_000,
  ...overrides,
});

describe("a model call's reservation", () => {
  it('is its most output, a token for every 3 bytes it sends, and what its messages cost beyond their text', () => {
    expect(reservedTokens(request())).toBe(1_000 + MESSAGE_TOKENS);
    // 30 bytes of instructions and 30 of a message: 20 tokens, and two messages' framing.
    const text = 'x'.repeat(30);
    expect(reservedTokens(request({ instructions: text, messages: [{ role: 'user', content: text }] }))).toBe(
      1_000 + 20 + 2 * MESSAGE_TOKENS,
    );
  });

  it('reserves 16,384 tokens of output for a call sent without a cap', () => {
    expect(UNCAPPED_OUTPUT_TOKENS).toBe(16_384);
    expect(reservedTokens(request({ maxOutputTokens: null }))).toBe(UNCAPPED_OUTPUT_TOKENS + MESSAGE_TOKENS);
  });

  it('counts bytes, not characters: a CJK character is a token', () => {
    const cjk = '漢'.repeat(300);
    expect(reservedTokens(request({ instructions: cjk }))).toBe(1_000 + 300 + MESSAGE_TOKENS);
  });

  it('counts the tool calls asked, the tools offered and the images shown', () => {
    const bare = reservedTokens(request({ messages: [{ role: 'user', content: 'See.' }] }));
    expect(
      reservedTokens(
        request({ messages: [{ role: 'user', content: 'See.', image: { contentType: 'image/png' } }] }),
      ),
    ).toBe(bare + IMAGE_TOKENS);

    const call = { name: 'vault__read', arguments: '{"id":"r-1"}' };
    expect(
      reservedTokens(request({ messages: [{ role: 'assistant', content: '', toolCalls: [call] }] })),
    ).toBe(1_000 + Math.ceil((11 + 12) / 3) + 2 * MESSAGE_TOKENS);

    const tool = { name: 'vault__read', description: 'Reads.', parameters: { type: 'object' } };
    // 11 + 6 + 17 bytes ({"type":"object"}).
    expect(reservedTokens(request({ tools: [tool] }))).toBe(1_000 + Math.ceil(34 / 3) + MESSAGE_TOKENS);
  });
});

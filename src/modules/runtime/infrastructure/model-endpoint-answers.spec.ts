import { describe, expect, it } from '@jest/globals';
import { errorAnswer, retryAfterMs } from 'src/modules/runtime/infrastructure/model-endpoint-answers';

const openAiError = (error: Record<string, unknown>) => JSON.stringify({ error });

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-02T10:00:00Z');

  it("reads OpenAI's retry-after-ms first, then Retry-After in seconds or as an HTTP date", () => {
    expect(retryAfterMs({ 'retry-after-ms': '1500', 'retry-after': '9' }, now)).toBe(1_500);
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2_000);
    expect(retryAfterMs({ 'retry-after': '0.5' }, now)).toBe(500);
    expect(retryAfterMs({ 'retry-after': 'Mon, 02 Mar 2026 10:00:03 GMT' }, now)).toBe(3_000);
  });

  it('takes a date already past as no wait, and asks nothing of a missing or unreadable header', () => {
    expect(retryAfterMs({ 'retry-after': 'Mon, 02 Mar 2026 09:59:00 GMT' }, now)).toBe(0);
    expect(retryAfterMs({}, now)).toBeNull();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeNull();
    expect(retryAfterMs({ 'retry-after': '-3' }, now)).toBeNull();
    expect(retryAfterMs({ 'retry-after-ms': 'later', 'retry-after': '1' }, now)).toBe(1_000);
  });
});

describe('errorAnswer', () => {
  it('retries rate limits, time-outs, conflicts and server errors, quoting the error message', () => {
    expect(errorAnswer(429, openAiError({ message: 'Rate limit reached for gpt-4o.' }))).toEqual({
      code: 'model_rate_limited',
      retryable: true,
      reason: 'The model endpoint answered 429 (rate limited)',
      detail: 'Rate limit reached for gpt-4o.',
      hint: '',
    });
    for (const status of [408, 409, 500, 502, 503, 504]) {
      expect(errorAnswer(status, '')).toMatchObject({ code: 'model_error', retryable: true });
    }
    expect(errorAnswer(503, '<html>Service Unavailable</html>')).toMatchObject({
      reason: 'The model endpoint answered 503 (service unavailable)',
      detail: '<html>Service Unavailable</html>',
    });
  });

  it('fails at once on a spent quota, a context too long, a refused key, an unknown model or a bad request', () => {
    const cases: [number, string, Partial<ReturnType<typeof errorAnswer>>][] = [
      [
        429,
        openAiError({ code: 'insufficient_quota', message: 'You exceeded your quota.' }),
        { code: 'model_rate_limited' },
      ],
      [
        400,
        openAiError({ code: 'context_length_exceeded', message: 'Too long.' }),
        { code: 'model_context_too_long' },
      ],
      // vLLM's form: the message at the top, no code.
      [
        400,
        JSON.stringify({ object: 'error', message: "This model's maximum context length is 4096 tokens." }),
        { code: 'model_context_too_long', detail: "This model's maximum context length is 4096 tokens." },
      ],
      [
        401,
        openAiError({ message: 'Incorrect API key provided.' }),
        { code: 'model_auth_error', hint: 'Check OPENAI_API_KEY.' },
      ],
      [403, '', { code: 'model_auth_error' }],
      [
        404,
        JSON.stringify({ error: 'model "gpt-9" not found' }),
        { code: 'model_error', detail: 'model "gpt-9" not found' },
      ],
      [
        400,
        openAiError({ message: 'Invalid temperature.' }),
        { code: 'model_error', detail: 'Invalid temperature.' },
      ],
    ];
    for (const [status, body, expected] of cases) {
      expect(errorAnswer(status, body)).toMatchObject({ ...expected, retryable: false });
    }
  });

  it('cuts a long detail', () => {
    expect(errorAnswer(500, 'x'.repeat(5_000)).detail).toHaveLength(300);
  });
});

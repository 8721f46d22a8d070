import { IncomingHttpHeaders, STATUS_CODES } from 'node:http';

/** Of an error answer's body, what its message quotes. */
const ERROR_DETAIL_CHARS = 300;

/** What an error answer of a chat-completions endpoint means for the call that got it. */
export interface ErrorAnswer {
  /** The error code the call fails with. */
  code: string;
  /** Whether the same request, sent again later, may pass: a rate limit, an overloaded or restarting server. */
  retryable: boolean;
  /** What went wrong, e.g. "The model endpoint answered 429 (rate limited)". */
  reason: string;
  /** What the body says of it, cut short; empty when it says nothing. */
  detail: string;
  /** What to check when the fault is the set-up's, not the endpoint's; empty otherwise. */
  hint: string;
}

/**
 * Reads an error answer: its status, and the error OpenAI and most compatible servers put in the
 * body (`{"error": {"message", "code"}}`, or `message` at the top as vLLM does). 429, 408, 409 and
 * 5xx may pass later, as OpenAI's own clients assume; a spent quota, a bad request, a refused key
 * or an unknown model will not, so they fail at once.
 */
export function errorAnswer(status: number, body: string): ErrorAnswer {
  const error = bodyError(body);
  const answer = (code: string, retryable: boolean, meaning: string, hint = ''): ErrorAnswer => ({
    code,
    retryable,
    reason: `The model endpoint answered ${status} (${meaning})`,
    detail: (error.message ?? body.trim()).slice(0, ERROR_DETAIL_CHARS),
    hint,
  });
  if (status === 429) {
    return error.code === 'insufficient_quota'
      ? answer('model_rate_limited', false, 'quota exceeded')
      : answer('model_rate_limited', true, 'rate limited');
  }
  if (
    status === 400 &&
    (error.code === 'context_length_exceeded' || /maximum context length/i.test(error.message ?? ''))
  ) {
    return answer(
      'model_context_too_long',
      false,
      "the conversation is longer than the model's context window",
    );
  }
  if (status === 401)
    return answer('model_auth_error', false, 'the API key was refused', 'Check OPENAI_API_KEY.');
  if (status === 403) {
    return answer('model_auth_error', false, 'the API key may not use this model', 'Check OPENAI_API_KEY.');
  }
  if (status === 404) {
    const hint = "Check the agent's model id and OPENAI_BASE_URL.";
    return answer('model_error', false, 'no such model or endpoint', hint);
  }
  const retryable = status === 408 || status === 409 || status >= 500;
  return answer('model_error', retryable, STATUS_CODES[status]?.toLowerCase() ?? 'unexpected status');
}

/**
 * How long the endpoint asks to be left alone before the next request, in milliseconds:
 * `retry-after-ms` (which OpenAI sends), else `Retry-After` in seconds or as an HTTP date; null
 * when it asks nothing readable.
 */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number): number | null {
  const milliseconds = single(headers['retry-after-ms']);
  if (milliseconds !== undefined && NUMBER.test(milliseconds)) return Number(milliseconds);
  const value = headers['retry-after']?.trim();
  if (!value) return null;
  if (NUMBER.test(value)) return Number(value) * 1000;
  // An HTTP date names its weekday and month; `Date.parse` would also take "-3" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

const NUMBER = /^\d+(\.\d+)?$/;

function single(value: string | string[] | undefined): string | undefined {
  return (Array.isArray(value) ? value[0] : value)?.trim();
}

function bodyError(body: string): { message: string | null; code: string | null } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { message: null, code: null };
  }
  const outer = record(parsed);
  const error = record(outer?.error) ?? outer;
  // Some servers send the error as a bare string: `{"error": "model not found"}`.
  return { message: text(error?.message) ?? text(outer?.error), code: text(error?.code) };
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

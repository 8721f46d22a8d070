import type { ServerResponse } from 'node:http';
import type { RateLimitDecision } from 'src/platform/auth/rate-limit/rate-limit-ledger';

/**
 * On every authenticated answer: the window's limit, what is left of it, and when it resets
 * (seconds since the epoch); a refused request also gets Retry-After (seconds). Set on the Node
 * response, so an event stream, which writes its own head, carries them too.
 */
export function setRateLimitHeaders(
  response: ServerResponse,
  decision: RateLimitDecision,
  now: number,
): void {
  response.setHeader('X-RateLimit-Limit', String(decision.limit));
  response.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  response.setHeader('X-RateLimit-Reset', String(Math.ceil(decision.resetAt / 1000)));
  if (!decision.allowed) response.setHeader('Retry-After', String(retryAfterSeconds(decision, now)));
}

export function retryAfterSeconds(decision: RateLimitDecision, now: number): number {
  return Math.max(1, Math.ceil((decision.resetAt - now) / 1000));
}

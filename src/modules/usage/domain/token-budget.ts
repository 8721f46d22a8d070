import { RateLimitError } from 'src/platform/errors/domain-error';

/** The month a budget counts: from its first instant, UTC, to the first of the next, when it renews. */
export function budgetMonth(now: Date): { start: Date; renewsAt: Date } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)), renewsAt: new Date(Date.UTC(year, month + 1, 1)) };
}

/**
 * A new run refused because the workspace's tokens of the month reached its budget: 429
 * `rate_limit_error` (the specification's code for "not now"), Retry-After until it renews.
 */
export class TokenBudgetSpent extends RateLimitError {
  constructor(budget: number, used: number, renewsAt: Date, now: Date) {
    super(
      `This workspace has used ${used} of its ${budget} tokens this month, so agents cannot start new runs; the budget renews at ${renewsAt.toISOString()}.`,
      Math.max(1, Math.ceil((renewsAt.getTime() - now.getTime()) / 1000)),
    );
  }
}

/** Whether a month's use leaves room for a new run: none once it reached the budget. */
export function budgetSpent(budget: number | null, used: number): boolean {
  return budget !== null && used >= budget;
}

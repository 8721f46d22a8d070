/**
 * The retries the model calls of one run may make between them: each retry of a failed call takes
 * one, and once none is left the call fails with the reason of its last attempt. A run of many
 * steps against a struggling endpoint thus waits a bounded time, however many calls it makes.
 */
export class RetryBudget {
  private taken = 0;

  constructor(readonly limit: number) {}

  /** Counts one retry; false, counting nothing, when the budget has none left. */
  take(): boolean {
    if (this.taken >= this.limit) return false;
    this.taken += 1;
    return true;
  }
}

/** The answer for one request: whether it may proceed, and what the X-RateLimit-* headers say. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When the window ends, in milliseconds since the epoch. */
  resetAt: number;
}

interface KeyWindow {
  windowStart: number;
  /** Requests this process allowed in the window. */
  local: number;
  /** Of those, how many the shared counter already holds. */
  flushed: number;
  /** What the other processes used in the window, as the shared counter last said. */
  others: number;
}

/** What to add to the shared counters of one window, and which keys to read back. */
export interface RateLimitBatch {
  windowStart: number;
  increments: Map<string, number>;
  keys: string[];
}

/**
 * The per-process view of every key's use in the current fixed window: decisions are taken here,
 * without I/O; a timer reconciles it with the counters all processes share (`drain` what this
 * process used, `settle` with the totals read back).
 */
export class RateLimitLedger {
  private readonly windows = new Map<string, KeyWindow>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  windowStart(now: number): number {
    return now - (now % this.windowMs);
  }

  /** Whether this process has read the shared counter of the key for the window of `now`. */
  knows(keyId: string, now: number): boolean {
    return this.windows.get(keyId)?.windowStart === this.windowStart(now);
  }

  /** The shared counter's total for a key this process does not know yet. */
  learn(keyId: string, windowStart: number, total: number): void {
    const current = this.windows.get(keyId);
    if (current?.windowStart === windowStart) {
      current.others = Math.max(current.others, total - current.flushed);
    } else {
      this.windows.set(keyId, { windowStart, local: 0, flushed: 0, others: total });
    }
  }

  /** Counts the request when the key has room left in the window; a refused request is not counted. */
  take(keyId: string, now: number): RateLimitDecision {
    const windowStart = this.windowStart(now);
    let window = this.windows.get(keyId);
    if (window?.windowStart !== windowStart) {
      window = { windowStart, local: 0, flushed: 0, others: 0 };
      this.windows.set(keyId, window);
    }
    const used = window.local + window.others;
    const allowed = used < this.limit;
    if (allowed) window.local += 1;
    return {
      allowed,
      limit: this.limit,
      windowSeconds: this.windowMs / 1000,
      remaining: Math.max(0, this.limit - used - (allowed ? 1 : 0)),
      resetAt: windowStart + this.windowMs,
    };
  }

  /**
   * What this process used since the last batch, counted as flushed at once (requests that
   * arrive while the batch is written stay local); keys of ended windows are dropped.
   */
  drain(now: number): RateLimitBatch {
    const windowStart = this.windowStart(now);
    const increments = new Map<string, number>();
    const keys: string[] = [];
    for (const [keyId, window] of this.windows) {
      if (window.windowStart !== windowStart) {
        this.windows.delete(keyId);
        continue;
      }
      keys.push(keyId);
      const pending = window.local - window.flushed;
      if (pending > 0) {
        increments.set(keyId, pending);
        window.flushed = window.local;
      }
    }
    return { windowStart, increments, keys };
  }

  /** The batch could not be written: its requests are pending again. */
  restore(batch: RateLimitBatch): void {
    for (const [keyId, count] of batch.increments) {
      const window = this.windows.get(keyId);
      if (window?.windowStart === batch.windowStart) window.flushed -= count;
    }
  }

  /** The shared totals after the batch: everything beyond this process's own share is the others'. */
  settle(batch: RateLimitBatch, totals: ReadonlyMap<string, number>): void {
    for (const [keyId, total] of totals) {
      const window = this.windows.get(keyId);
      if (window?.windowStart === batch.windowStart) window.others = Math.max(0, total - window.flushed);
    }
  }
}

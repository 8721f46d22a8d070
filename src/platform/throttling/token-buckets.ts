/** Refills are fractions: this keeps rounding errors from costing (or granting) a millisecond. */
const EPSILON = 1e-6;

/**
 * Token buckets kept in process memory, one per key: each holds up to `capacity` tokens and
 * refills evenly, `capacity` per `periodMs`. A key that has been quiet is the same as a full
 * bucket, so the least recently used are dropped first when there are too many keys.
 */
export class TokenBuckets<K> {
  private readonly buckets = new Map<K, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly capacity: number,
    periodMs: number,
    private readonly maxKeys = 10_000,
  ) {
    this.perMs = capacity / periodMs;
  }

  /** Takes one token of `key`: 0 when granted, otherwise the milliseconds until one is there. */
  take(key: K, now = Date.now()): number {
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(this.capacity, bucket.tokens + Math.max(0, now - bucket.at) * this.perMs)
      : this.capacity;
    if (tokens < 1 - EPSILON) return Math.ceil((1 - tokens) / this.perMs - EPSILON);
    // Re-inserted so the map's order stays least recently used first.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as K);
    return 0;
  }

  /**
   * Gives back a token taken for work that turned out not to count (a request that proved to be
   * legitimate); never beyond the capacity. A forgotten key is full already.
   */
  refund(key: K): void {
    const bucket = this.buckets.get(key);
    if (bucket) bucket.tokens = Math.min(this.capacity, bucket.tokens + 1);
  }
}

/**
 * A bounded in-process cache whose entries expire: what a process keeps a few seconds to spare a
 * look-up on every request. Full, it drops its oldest entry (Maps iterate in insertion order).
 */
export class ExpiringCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value, while it has not expired at `now` (ms since the epoch). */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.expiresAt > now ? entry.value : undefined;
  }

  set(key: K, value: V, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every entry `matches` selects (a revoked key, a changed source). */
  deleteWhere(matches: (value: V, key: K) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(entry.value, key)) this.entries.delete(key);
  }
}

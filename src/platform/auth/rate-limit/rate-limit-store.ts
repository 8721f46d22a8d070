/** Port: the per-key request counters of each window, shared by every process of the service. */
export abstract class RateLimitStore {
  /**
   * Adds each increment to its key's counter of the window, and answers the counter of every key
   * in `increments` or `keys` (0 for a key nobody used yet).
   */
  abstract add(
    windowStart: Date,
    increments: ReadonlyMap<string, number>,
    keys: readonly string[],
  ): Promise<Map<string, number>>;

  /** Forgets the counters of windows that started before `before`. */
  abstract prune(before: Date): Promise<void>;
}

/** How long retries wait: `baseMs` doubled at each attempt, up to `maxMs`. */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/** The longest wait before retry number `attempt` (0 for the first retry). */
export function backoffCeilingMs(attempt: number, policy: BackoffPolicy): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
}

/**
 * The wait before retry number `attempt`, drawn anywhere from 0 to its ceiling ("full jitter"):
 * clients that failed together then retry spread out instead of all at once, which is what keeps a
 * rate-limited or restarting endpoint from being hit again by the same burst.
 */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
): number {
  return Math.floor(random() * backoffCeilingMs(attempt, policy));
}

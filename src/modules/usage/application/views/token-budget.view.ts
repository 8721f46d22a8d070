export interface TokenBudgetView {
  /** The budget that applies, null when none does. */
  monthlyTokens: number | null;
  /** Where it comes from: the workspace's setting, the service's configured default, or nowhere. */
  source: 'workspace' | 'configuration' | 'none';
  /** Prompt and completion tokens of the runs started this month (UTC). */
  usedTokens: number;
  /** ISO 8601: the month's first instant, UTC. */
  periodStart: string;
  /** ISO 8601: the first instant of next month, UTC, when the count starts again. */
  renewsAt: string;
  /** Whether new runs are refused until `renewsAt`. */
  spent: boolean;
}

/**
 * What runs cost, summed: how many, how many user messages they answered, the tokens their model
 * calls reported (reasoning tokens are part of completion tokens) and their wall-clock time.
 */
export interface UsageTotals {
  runs: number;
  messages: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
  durationMs: number;
}

/** The groups of a row; only those the report groups by are set. */
export interface UsageKey {
  /** YYYY-MM-DD, the UTC day the runs started. */
  day?: string;
  /** Null for runs recorded before usage was kept. */
  agentSId?: string | null;
  userId?: number | null;
  modelProviderId?: string | null;
  modelId?: string | null;
}

export interface UsageGroupTotals extends UsageTotals {
  key: UsageKey;
}

/** The tokens a budget counts: what was sent and what came back (reasoning is within completion). */
export function budgetTokens(totals: Pick<UsageTotals, 'promptTokens' | 'completionTokens'>): number {
  return totals.promptTokens + totals.completionTokens;
}

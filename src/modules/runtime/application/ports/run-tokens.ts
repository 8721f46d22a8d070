import type { ModelRequest, ModelUsage } from 'src/modules/runtime/application/ports/model-provider';

/** What a model call holds of its workspace's budget from before it starts until it settles. */
export interface TokenHold {
  tokens: number;
}

/**
 * The workspace's monthly token budget as the model calls of one run spend it, the agents it asks
 * through `run_agent` and the model calls of its tools included (their tokens are the run's). A
 * call reserves before it starts and is refused when the month's tokens used and held leave no
 * room for it; it settles once it ended, at the usage its provider reported (none: only its hold
 * is given back).
 */
export interface RunTokens {
  /** Throws `TokenBudgetRefused`, a `ModelError`, when the budget has no room for the call. */
  reserve(request: ModelRequest): Promise<TokenHold>;
  settle(hold: TokenHold, usage: ModelUsage | null): Promise<void>;
}

/** What a budget counts: requests to a model, and calls of tools. */
export type BudgetedCall = 'model_call' | 'tool_call';

export interface RunBudgetLimits {
  modelCalls: number;
  toolCalls: number;
}

/**
 * The model and tool calls a tree of runs may make (the runs answering one user message, and every
 * run they ask through `run_agent`): counted as they are made, refused past the limit.
 */
export class RunBudget {
  private readonly spent: Record<BudgetedCall, number> = { model_call: 0, tool_call: 0 };

  constructor(readonly limits: RunBudgetLimits) {}

  limit(kind: BudgetedCall): number {
    return kind === 'model_call' ? this.limits.modelCalls : this.limits.toolCalls;
  }

  /** Counts one call of `kind`; false, counting nothing, when the budget has none left. */
  take(kind: BudgetedCall): boolean {
    if (this.spent[kind] >= this.limit(kind)) return false;
    this.spent[kind] += 1;
    return true;
  }

  /** Counts calls made before this budget was made (a resumed run's steps), even past the limit. */
  count(kind: BudgetedCall, calls: number): void {
    this.spent[kind] += calls;
  }
}

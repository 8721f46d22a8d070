import type { RunBudgetSettings } from 'src/modules/runtime/runtime.config';
import { BudgetedCall, RunBudget } from 'src/modules/runtime/domain/run-budget';

const LIMITS: Record<BudgetedCall, { what: string; variable: string }> = {
  model_call: { what: 'model call', variable: 'RUN_MAX_MODEL_CALLS' },
  tool_call: { what: 'tool call', variable: 'RUN_MAX_TOOL_CALLS' },
};

/** A tree of runs spent its budget: every run of it stops, and its agent messages fail with this. */
export class RunBudgetExceeded extends Error {
  readonly code = 'run_budget_exceeded';

  constructor(kind: BudgetedCall, limit: number) {
    const { what, variable } = LIMITS[kind];
    super(
      `The answer used its budget of ${limit} ${what}${limit === 1 ? '' : 's'} (${variable}), the agents asked through run_agent ` +
        'included, and was stopped.',
    );
  }
}

/**
 * The budget of a tree of runs, as the runs spend it: the call that finds it spent is not made, and
 * `signal` aborts with `RunBudgetExceeded`, stopping every run of the tree at once.
 */
export class RunTreeBudget {
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;

  constructor(private readonly budget: RunBudget) {}

  static of(settings: RunBudgetSettings): RunTreeBudget {
    return new RunTreeBudget(
      new RunBudget({ modelCalls: settings.maxModelCalls, toolCalls: settings.maxToolCalls }),
    );
  }

  /** Spends one call of `kind`, or throws `RunBudgetExceeded` (the same for every later call). */
  spend(kind: BudgetedCall): void {
    this.signal.throwIfAborted();
    if (this.budget.take(kind)) return;
    const exceeded = new RunBudgetExceeded(kind, this.budget.limit(kind));
    this.controller.abort(exceeded);
    throw exceeded;
  }

  /** Counts calls a resumed run made before it stopped. */
  count(kind: BudgetedCall, calls: number): void {
    this.budget.count(kind, calls);
  }
}

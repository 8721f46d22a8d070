import { describe, expect, it } from '@jest/globals';
import { RunBudgetExceeded, RunTreeBudget } from 'src/modules/runtime/application/run-tree-budget';

describe('RunTreeBudget', () => {
  it('spends calls until one kind is spent, then stops the tree with an error naming its variable', () => {
    const budget = RunTreeBudget.of({ maxModelCalls: 2, maxToolCalls: 5 });
    budget.spend('model_call');
    budget.spend('tool_call');
    budget.spend('model_call');
    expect(budget.signal.aborted).toBe(false);
    expect(() => budget.spend('model_call')).toThrow(
      'The answer used its budget of 2 model calls (RUN_MAX_MODEL_CALLS), the agents asked through run_agent included, and was stopped.',
    );
    expect(budget.signal.aborted).toBe(true);
    expect(budget.signal.reason).toBeInstanceOf(RunBudgetExceeded);
    expect(budget.signal.reason).toMatchObject({ code: 'run_budget_exceeded' });
    // Once spent, every call is refused with the same reason, tool calls included.
    expect(() => budget.spend('tool_call')).toThrow(/2 model calls/);
  });

  it('names the tool call budget when that one is spent first', () => {
    const budget = RunTreeBudget.of({ maxModelCalls: 64, maxToolCalls: 1 });
    budget.spend('tool_call');
    expect(() => budget.spend('tool_call')).toThrow(/budget of 1 tool call \(RUN_MAX_TOOL_CALLS\)/);
  });

  it('counts what a resumed run spent before', () => {
    const budget = RunTreeBudget.of({ maxModelCalls: 3, maxToolCalls: 10 });
    budget.count('model_call', 3);
    expect(() => budget.spend('model_call')).toThrow(RunBudgetExceeded);
  });
});

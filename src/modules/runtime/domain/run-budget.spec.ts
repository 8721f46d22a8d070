import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { BudgetedCall, RunBudget } from 'src/modules/runtime/domain/run-budget';

describe('RunBudget', () => {
  it('grants each kind of call up to its own limit, then refuses it', () => {
    const budget = new RunBudget({ modelCalls: 2, toolCalls: 3 });
    expect([budget.take('model_call'), budget.take('model_call'), budget.take('model_call')]).toEqual([
      true,
      true,
      false,
    ]);
    expect([1, 2, 3, 4].map(() => budget.take('tool_call'))).toEqual([true, true, true, false]);
  });

  it('never grants more calls than its limit, whatever the order of asks', () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.nat(20),
        fc.array(fc.constantFrom<BudgetedCall>('model_call', 'tool_call'), { maxLength: 100 }),
        (modelCalls, toolCalls, asks) => {
          const budget = new RunBudget({ modelCalls, toolCalls });
          const granted = { model_call: 0, tool_call: 0 };
          for (const kind of asks) if (budget.take(kind)) granted[kind] += 1;
          const asked = (kind: BudgetedCall) => asks.filter((ask) => ask === kind).length;
          expect(granted).toEqual({
            model_call: Math.min(modelCalls, asked('model_call')),
            tool_call: Math.min(toolCalls, asked('tool_call')),
          });
        },
      ),
    );
  });

  it('counts the calls a resumed run made before, so it gets only what is left', () => {
    const budget = new RunBudget({ modelCalls: 3, toolCalls: 3 });
    budget.count('model_call', 2);
    budget.count('tool_call', 5);
    expect(budget.take('model_call')).toBe(true);
    expect(budget.take('model_call')).toBe(false);
    expect(budget.take('tool_call')).toBe(false);
  });
});

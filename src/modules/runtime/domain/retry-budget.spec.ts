import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { RetryBudget } from 'src/modules/runtime/domain/retry-budget';

describe('RetryBudget', () => {
  it('grants retries up to its limit, then refuses them', () => {
    const budget = new RetryBudget(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
  });

  it('grants none when its limit is 0', () => {
    expect(new RetryBudget(0).take()).toBe(false);
  });

  it('never grants more than its limit, however often it is asked', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(50), (limit, asks) => {
        const budget = new RetryBudget(limit);
        const granted = Array.from({ length: asks }, () => budget.take()).filter(Boolean).length;
        expect(granted).toBe(Math.min(limit, asks));
      }),
    );
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { backoffCeilingMs, backoffDelayMs } from 'src/modules/runtime/domain/backoff';

const policies = fc
  .record({ baseMs: fc.integer({ min: 1, max: 10_000 }), factor: fc.integer({ min: 1, max: 64 }) })
  .map(({ baseMs, factor }) => ({ baseMs, maxMs: baseMs * factor }));
/** What `Math.random` may return: [0, 1). */
const randoms = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

describe('backoff', () => {
  it('waits from 0 to the ceiling of the attempt, which never passes the policy maximum', () => {
    fc.assert(
      fc.property(policies, fc.nat(40), randoms, (policy, attempt, random) => {
        const delay = backoffDelayMs(attempt, policy, () => random);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThanOrEqual(backoffCeilingMs(attempt, policy));
        expect(backoffCeilingMs(attempt, policy)).toBeLessThanOrEqual(policy.maxMs);
      }),
    );
  });

  it('has a ceiling that never decreases from one attempt to the next', () => {
    fc.assert(
      fc.property(policies, fc.nat(40), (policy, attempt) => {
        expect(backoffCeilingMs(attempt + 1, policy)).toBeGreaterThanOrEqual(
          backoffCeilingMs(attempt, policy),
        );
      }),
    );
  });

  it('doubles the base at each attempt until the maximum', () => {
    const policy = { baseMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 5].map((attempt) => backoffCeilingMs(attempt, policy))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
    expect(backoffDelayMs(2, policy, () => 0)).toBe(0);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(200);
    expect(backoffDelayMs(9, policy, () => 0.999)).toBe(999);
  });
});

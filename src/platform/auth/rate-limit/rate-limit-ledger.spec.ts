import { describe, expect, it } from '@jest/globals';
import { RateLimitLedger } from 'src/platform/auth/rate-limit/rate-limit-ledger';

const MINUTE = 60_000;
/** A time 10 s into a window. */
const T0 = 1_000 * MINUTE + 10_000;

describe('RateLimitLedger', () => {
  it('allows the limit per key and window, then refuses without counting, and starts again next window', () => {
    const ledger = new RateLimitLedger(3, MINUTE);
    const answers = [1, 2, 3, 4, 5].map(() => ledger.take('key_a', T0));
    expect(answers.map((a) => [a.allowed, a.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
      [false, 0],
    ]);
    expect(answers[0]).toMatchObject({ limit: 3, windowSeconds: 60, resetAt: T0 - 10_000 + MINUTE });
    expect(ledger.take('key_b', T0)).toMatchObject({ allowed: true, remaining: 2 });
    expect(ledger.take('key_a', T0 + 50_000)).toMatchObject({ allowed: true, remaining: 2 });
    expect(ledger.drain(T0 + 50_000).increments).toEqual(new Map([['key_a', 1]]));
  });

  it("adds what other processes used, as the shared counter says, to this process's own use", () => {
    const ledger = new RateLimitLedger(10, MINUTE);
    const windowStart = ledger.windowStart(T0);
    expect(ledger.knows('key_a', T0)).toBe(false);
    ledger.learn('key_a', windowStart, 6);
    expect(ledger.knows('key_a', T0)).toBe(true);
    expect(ledger.take('key_a', T0)).toMatchObject({ allowed: true, remaining: 3 });
    expect(ledger.take('key_a', T0)).toMatchObject({ allowed: true, remaining: 2 });

    const batch = ledger.drain(T0);
    expect(batch).toEqual({ windowStart, increments: new Map([['key_a', 2]]), keys: ['key_a'] });
    // Another process used 1 more meanwhile: the shared counter holds 6 + 2 + 1.
    ledger.settle(batch, new Map([['key_a', 9]]));
    expect(ledger.take('key_a', T0)).toMatchObject({ allowed: true, remaining: 0 });
    expect(ledger.take('key_a', T0)).toMatchObject({ allowed: false, remaining: 0 });
  });

  it('keeps requests made while a batch is written, and puts back a batch that failed', () => {
    const ledger = new RateLimitLedger(100, MINUTE);
    ledger.take('key_a', T0);
    ledger.take('key_a', T0);
    const first = ledger.drain(T0);
    ledger.take('key_a', T0);
    ledger.settle(first, new Map([['key_a', 2]]));
    ledger.restore(ledger.drain(T0));
    expect(ledger.drain(T0).increments).toEqual(new Map([['key_a', 1]]));
    expect(ledger.take('key_a', T0)).toMatchObject({ remaining: 96 });
  });

  it('drops keys of ended windows, and ignores answers about them', () => {
    const ledger = new RateLimitLedger(5, MINUTE);
    ledger.take('key_a', T0);
    const old = ledger.drain(T0);
    const next = T0 + MINUTE;
    expect(ledger.drain(next)).toEqual({
      windowStart: ledger.windowStart(next),
      increments: new Map(),
      keys: [],
    });
    ledger.settle(old, new Map([['key_a', 5]]));
    expect(ledger.take('key_a', next)).toMatchObject({ allowed: true, remaining: 4 });
  });
});

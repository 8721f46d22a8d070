import { describe, expect, it } from '@jest/globals';
import { TokenBuckets } from 'src/platform/throttling/token-buckets';

describe('TokenBuckets', () => {
  it('grants the capacity at once, then refuses with the wait until the next token', () => {
    const buckets = new TokenBuckets<string>(40, 60_000);
    for (let i = 0; i < 40; i++) expect(buckets.take('w', 1_000)).toBe(0);
    expect(buckets.take('w', 1_000)).toBe(1_500);
    expect(buckets.take('w', 2_000)).toBe(500);
    expect(buckets.take('w', 2_500)).toBe(0);
    expect(buckets.take('w', 2_500)).toBe(1_500);
  });

  it('keeps each key apart', () => {
    const buckets = new TokenBuckets<number>(1, 60_000);
    expect(buckets.take(1, 0)).toBe(0);
    expect(buckets.take(2, 0)).toBe(0);
    expect(buckets.take(1, 0)).toBeGreaterThan(0);
  });

  it('never holds more than the capacity after a long pause', () => {
    const buckets = new TokenBuckets<string>(2, 1_000);
    expect(buckets.take('w', 0)).toBe(0);
    const later = 3_600_000;
    expect(buckets.take('w', later)).toBe(0);
    expect(buckets.take('w', later)).toBe(0);
    expect(buckets.take('w', later)).toBe(500);
  });

  it('takes back a refunded token, never beyond the capacity', () => {
    const buckets = new TokenBuckets<string>(2, 60_000);
    expect(buckets.take('w', 0)).toBe(0);
    expect(buckets.take('w', 0)).toBe(0);
    buckets.refund('w');
    expect(buckets.take('w', 0)).toBe(0);
    expect(buckets.take('w', 0)).toBeGreaterThan(0);
    buckets.refund('w');
    buckets.refund('w');
    buckets.refund('w');
    expect(buckets.take('w', 0)).toBe(0);
    expect(buckets.take('w', 0)).toBe(0);
    expect(buckets.take('w', 0)).toBeGreaterThan(0);
    buckets.refund('never-taken');
    expect(buckets.take('never-taken', 0)).toBe(0);
  });

  it('forgets the least recently used key beyond its bound', () => {
    const buckets = new TokenBuckets<string>(1, 60_000, 2);
    buckets.take('a', 0);
    buckets.take('b', 0);
    buckets.take('c', 0);
    expect(buckets.take('a', 0)).toBe(0);
    expect(buckets.take('c', 0)).toBeGreaterThan(0);
  });
});

import { describe, expect, it } from '@jest/globals';
import { ExpiringCache } from 'src/platform/cache/expiring-cache';

describe('ExpiringCache', () => {
  it('answers a value until its time is up', () => {
    const cache = new ExpiringCache<string, number>(1_000, 10);
    cache.set('a', 1, 5_000);
    expect(cache.get('a', 5_999)).toBe(1);
    expect(cache.get('a', 6_000)).toBeUndefined();
  });

  it('drops the oldest entry when full, a value set again counting as new', () => {
    const cache = new ExpiringCache<string, number>(1_000, 2);
    cache.set('a', 1, 0);
    cache.set('b', 2, 0);
    cache.set('a', 3, 0);
    cache.set('c', 4, 0);
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([3, undefined, 4]);
  });

  it('forgets the entries a condition selects, and one by key', () => {
    const cache = new ExpiringCache<string, number>(1_000, 10);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(key, value, 0);
    cache.deleteWhere((value) => value % 2 === 1);
    cache.delete('b');
    expect([cache.get('a', 0), cache.get('b', 0), cache.get('c', 0)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

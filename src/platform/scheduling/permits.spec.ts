import { describe, expect, it } from '@jest/globals';
import { Permits } from 'src/platform/scheduling/permits';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Permits', () => {
  it('lets `count` holders in at once and the next in order as each gives its permit back', async () => {
    const permits = new Permits(2);
    const order: number[] = [];
    const releases = new Map<number, () => void>();
    for (const n of [1, 2, 3, 4]) {
      void permits.acquire().then((release) => {
        order.push(n);
        releases.set(n, release);
      });
    }
    await settle();
    expect(order).toEqual([1, 2]);
    releases.get(2)!();
    releases.get(2)!();
    await settle();
    expect(order).toEqual([1, 2, 3]);
    releases.get(1)!();
    await settle();
    expect(order).toEqual([1, 2, 3, 4]);
    releases.get(3)!();
    releases.get(4)!();
    await permits.acquire();
    await permits.acquire();
    let third = false;
    void permits.acquire().then(() => (third = true));
    await settle();
    expect(third).toBe(false);
  });
});

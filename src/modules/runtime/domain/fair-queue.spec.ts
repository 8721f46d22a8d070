import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { FairQueue } from 'src/modules/runtime/domain/fair-queue';

/** Round-robin over owners in the order they first appeared, each owner's items in order. */
function roundRobin(pushes: [number, number][]): number[] {
  const byOwner = new Map<number, number[]>();
  for (const [owner, item] of pushes) byOwner.set(owner, [...(byOwner.get(owner) ?? []), item]);
  const order: number[] = [];
  while ([...byOwner.values()].some((items) => items.length > 0)) {
    for (const items of byOwner.values()) if (items.length > 0) order.push(items.shift()!);
  }
  return order;
}

describe('FairQueue', () => {
  it('takes every item once, round-robin across owners and in order within each', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 4 }), { maxLength: 200 }), (owners) => {
        const pushes = owners.map((owner, item): [number, number] => [owner, item]);
        const queue = new FairQueue<number, number>();
        for (const [owner, item] of pushes) queue.push(owner, item);
        const taken: number[] = [];
        for (let item = queue.take(); item !== undefined; item = queue.take()) taken.push(item);
        expect(taken).toEqual(roundRobin(pushes));
        expect(queue.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('serves a newcomer after at most one item of the owner ahead, however many it has waiting', () => {
    const queue = new FairQueue<string, string>();
    for (let i = 0; i < 1000; i++) queue.push('busy', `busy-${i}`);
    expect(queue.take()).toBe('busy-0');
    queue.push('newcomer', 'first');
    expect([queue.take(), queue.take(), queue.take()]).toEqual(['busy-1', 'first', 'busy-2']);
  });

  it('skips the owners the caller does not admit, keeping their turn', () => {
    const queue = new FairQueue<string, string>();
    queue.push('a', 'a1');
    queue.push('a', 'a2');
    queue.push('b', 'b1');
    expect(queue.take((owner) => owner !== 'a')).toBe('b1');
    expect(queue.take((owner) => owner !== 'a')).toBeUndefined();
    expect([queue.take(), queue.take(), queue.size]).toEqual(['a1', 'a2', 0]);
  });

  it('forgets an item taken out of its queue, and keeps the others in turn', () => {
    const queue = new FairQueue<string, string>();
    queue.push('a', 'a1');
    queue.push('b', 'b1');
    queue.push('a', 'a2');
    expect(queue.remove('a', 'a1')).toBe(true);
    expect(queue.remove('a', 'a1')).toBe(false);
    expect(queue.remove('c', 'c1')).toBe(false);
    expect(queue.size).toBe(2);
    expect(queue.remove('b', 'b1')).toBe(true);
    expect([queue.take(), queue.take(), queue.size]).toEqual(['a2', undefined, 0]);
  });
});

import { describe, expect, it } from '@jest/globals';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { collectYoungGeneration } from 'src/platform/memory/minor-gc';

/** Resolves with the kind of the first garbage collection V8 reports, or null after `ms`. */
function nextCollection(ms: number): Promise<number | null> {
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const [entry] = list.getEntries();
      observer.disconnect();
      clearTimeout(timer);
      resolve((entry as unknown as { detail: { kind: number } }).detail.kind);
    });
    const timer = setTimeout(() => {
      observer.disconnect();
      resolve(null);
    }, ms);
    observer.observe({ entryTypes: ['gc'] });
  });
}

describe('collectYoungGeneration', () => {
  it('has V8 run a young-generation collection, without putting gc on the global', async () => {
    const collected = nextCollection(5_000);
    collectYoungGeneration();

    expect(await collected).toBe(constants.NODE_PERFORMANCE_GC_MINOR);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});

import { describe, expect, it } from '@jest/globals';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';

describe('UrgentWork', () => {
  it('is idle at once when nothing urgent runs', async () => {
    const urgent = new UrgentWork();
    expect(urgent.busy).toBe(false);
    await urgent.idle();
  });

  it('holds idle() until every overlapping urgent run has ended, failed ones included', async () => {
    const urgent = new UrgentWork();
    const events: string[] = [];
    let endFirst!: () => void;
    let failSecond!: (error: Error) => void;
    const first = urgent.run(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = urgent.run(() => new Promise<void>((_, reject) => (failSecond = reject)));
    const idle = urgent.idle().then(() => events.push('idle'));
    expect(urgent.busy).toBe(true);

    endFirst();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([]);
    expect(urgent.busy).toBe(true);

    failSecond(new Error('boom'));
    await expect(second).rejects.toThrow('boom');
    await idle;
    expect(events).toEqual(['idle']);
    expect(urgent.busy).toBe(false);
  });

  it('returns what the urgent work returns', async () => {
    const urgent = new UrgentWork();
    expect(await urgent.run(async () => 42)).toBe(42);
  });
});

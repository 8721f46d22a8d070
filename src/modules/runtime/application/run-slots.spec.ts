import { describe, expect, it } from '@jest/globals';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { LendableSlot, ReleaseSlot, RunSlots } from 'src/modules/runtime/application/run-slots';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

function slots(concurrency: number, urgent = new UrgentWork()): RunSlots {
  return new RunSlots(RuntimeConfig.from({ RUN_CONCURRENCY: String(concurrency) }), urgent);
}

/** Lets granted promises settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A request's state: its release once granted. */
function track(request: Promise<ReleaseSlot>) {
  const state: { release?: ReleaseSlot; error?: unknown } = {};
  request.then(
    (release) => (state.release = release),
    (error: unknown) => (state.error = error),
  );
  return state;
}

describe('RunSlots', () => {
  it('grants as many slots as allowed, and the next one as a slot is given back', async () => {
    const pool = slots(2);
    const [a, b, c] = [1, 2, 3].map((workspace) => track(pool.acquire(workspace)));
    await settle();
    expect([!!a.release, !!b.release, !!c.release]).toEqual([true, true, false]);
    a.release!();
    a.release!();
    await settle();
    expect(c.release).toBeDefined();
  });

  it('keeps one slot for other workspaces, and grants round-robin across them', async () => {
    const pool = slots(3);
    const busy = [1, 2, 3, 4].map(() => track(pool.acquire(1)));
    await settle();
    expect(busy.filter((state) => state.release).length).toBe(2);
    const other = track(pool.acquire(2));
    await settle();
    expect(other.release).toBeDefined();
    other.release!();
    await settle();
    // The freed slot is not the busy workspace's third.
    expect(busy.filter((state) => state.release).length).toBe(2);
  });

  it('forgets a request whose signal aborts while it waits', async () => {
    const pool = slots(1);
    const first = track(pool.acquire(1));
    const controller = new AbortController();
    const abandoned = track(pool.acquire(2, controller.signal));
    const next = track(pool.acquire(3));
    await settle();
    controller.abort(new Error('cancelled'));
    await settle();
    expect(abandoned.error).toMatchObject({ message: 'cancelled' });
    first.release!();
    await settle();
    expect(next.release).toBeDefined();
    expect(abandoned.release).toBeUndefined();
  });

  it('grants one slot at a time while urgent work runs, and all again after', async () => {
    const urgent = new UrgentWork();
    const pool = slots(4, urgent);
    let finish!: () => void;
    const work = urgent.run(() => new Promise<void>((resolve) => (finish = resolve)));
    const states = [1, 2, 3].map((workspace) => track(pool.acquire(workspace)));
    await settle();
    expect(states.filter((state) => state.release).length).toBe(1);
    finish();
    await work;
    await settle();
    expect(states.every((state) => state.release)).toBe(true);
  });

  it('grants waiting requests past the workspace share once it stops', async () => {
    const pool = slots(3);
    const states = [1, 2, 3].map(() => track(pool.acquire(1)));
    await settle();
    expect(states.filter((state) => state.release).length).toBe(2);
    pool.stop();
    await settle();
    expect(states.every((state) => state.release)).toBe(true);
  });

  describe('for runs asked through run_agent', () => {
    it("gives a nested run its asker's slot while it is free, without a slot of the process", async () => {
      const pool = slots(1);
      const root = track(pool.acquire(1));
      await settle();
      const asker = new LendableSlot();
      const child = await pool.nested(asker, 1, new AbortController().signal);
      const other = track(pool.acquire(2));
      await settle();
      // The process's only slot is still the root's: the child runs in it.
      expect(other.release).toBeUndefined();
      child();
      root.release!();
      await settle();
      expect(other.release).toBeDefined();
    });

    it('runs every nested run of a tree holding the only slot, one after the other', async () => {
      const pool = slots(1);
      const root = track(pool.acquire(1));
      await settle();
      const asker = new LendableSlot();
      const signal = new AbortController().signal;
      const children = [1, 2, 3, 4].map(() => track(pool.nested(asker, 1, signal)));
      await settle();
      expect(children.map((state) => !!state.release)).toEqual([true, false, false, false]);
      for (let i = 0; i < 4; i++) {
        expect(children.filter((state) => state.release).length).toBe(i + 1);
        children[i].release!();
        await settle();
      }
      expect(children.every((state) => state.release)).toBe(true);
      root.release!();
    });

    it('gives a nested run a free slot of the process when its asker lent its own', async () => {
      const pool = slots(3);
      const root = track(pool.acquire(1));
      await settle();
      const asker = new LendableSlot();
      const signal = new AbortController().signal;
      const [first, second, third] = [1, 2, 3].map(() => track(pool.nested(asker, 1, signal)));
      await settle();
      // The lent slot, then the workspace's share (two of three slots): the third waits.
      expect([!!first.release, !!second.release, !!third.release]).toEqual([true, true, false]);
      const other = track(pool.acquire(2));
      await settle();
      expect(other.release).toBeDefined();
      first.release!();
      await settle();
      expect(third.release).toBeDefined();
      // The third took the lent slot: the process slot it also waited for is not held.
      other.release!();
      second.release!();
      const after = [track(pool.acquire(3)), track(pool.acquire(4))];
      await settle();
      expect(after.every((state) => state.release)).toBe(true);
      third.release!();
      root.release!();
    });

    it('stops waiting when its run stops', async () => {
      const pool = slots(1);
      track(pool.acquire(1));
      const asker = new LendableSlot();
      const controller = new AbortController();
      track(pool.nested(asker, 1, controller.signal));
      const waiting = track(pool.nested(asker, 1, controller.signal));
      await settle();
      controller.abort(new Error('budget spent'));
      await settle();
      expect(waiting.error).toMatchObject({ message: 'budget spent' });
    });
  });
});

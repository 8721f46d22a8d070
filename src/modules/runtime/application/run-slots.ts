import { Injectable } from '@nestjs/common';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { FairQueue } from 'src/modules/runtime/domain/fair-queue';
import { RuntimeConfig } from 'src/modules/runtime/runtime.config';

/** Gives a held slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** Slots in use at most while urgent work runs (see `pump`). */
const WHILE_URGENT = 1;

/** A slot held for whichever workspace's request is taken next from the shared queue. */
export interface SlotReservation {
  /** Workspaces that hold all the slots their share allows: their requests are not to be taken. */
  readonly fullWorkspaces: number[];
  /** The request taken is this workspace's: the slot is now its. */
  bind(workspaceId: number): ReleaseSlot;
  /** Nothing was taken: the slot is free again. */
  cancel(): void;
}

interface Waiter {
  workspaceId: number;
  grant(): void;
}

/**
 * The slot a run holds, lent to a run it asks through `run_agent` while it waits for that answer
 * (it does nothing else meanwhile): one such run at a time, the others wait for it or for a slot of
 * their own. A tree of runs therefore always has a run that goes on, whatever the other slots do.
 */
export class LendableSlot {
  private lent = false;
  private readonly borrowers: (() => void)[] = [];

  /** The slot, if it is free now. */
  tryBorrow(): ReleaseSlot | null {
    if (this.lent) return null;
    this.lent = true;
    return this.giveBack();
  }

  /** The slot once it is free; rejects with the signal's reason if that comes first. */
  borrow(signal: AbortSignal): Promise<ReleaseSlot> {
    const now = this.tryBorrow();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', abandon);
        resolve(this.giveBack());
      };
      const abandon = () => {
        const index = this.borrowers.indexOf(grant);
        if (index < 0) return;
        this.borrowers.splice(index, 1);
        reject(signal.reason as Error);
      };
      if (signal.aborted) return reject(signal.reason as Error);
      signal.addEventListener('abort', abandon, { once: true });
      this.borrowers.push(grant);
    });
  }

  private giveBack(): ReleaseSlot {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.borrowers.shift();
      if (next) next();
      else this.lent = false;
    };
  }
}

/**
 * The process's `runs.concurrency` slots, each a run under way: the answer to a posted message (all
 * the agents it mentions), a resumed run, or a run another one asked through `run_agent`. Waiting
 * requests are granted round-robin across workspaces, and no workspace holds every slot, so one
 * tenant's burst cannot starve the others. While urgent work (due wake-ups firing) is under way,
 * one slot at a time: the firing keeps the database, and answers still advance if it is held up.
 */
@Injectable()
export class RunSlots {
  private readonly waiting = new FairQueue<number, Waiter>();
  private readonly heldByWorkspace = new Map<number, number>();
  private held = 0;
  private stopping = false;
  private waitingForIdle = false;
  private readonly freeListeners: (() => void)[] = [];

  constructor(
    private readonly config: RuntimeConfig,
    private readonly urgent: UrgentWork,
  ) {}

  /** A slot in the workspace's turn; rejects with the signal's reason if that comes first. */
  acquire(workspaceId: number, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        workspaceId,
        grant: () => {
          signal?.removeEventListener('abort', abandon);
          resolve(this.holder(workspaceId));
        },
      };
      const abandon = () => {
        if (this.waiting.remove(workspaceId, waiter)) reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', abandon, { once: true });
      this.waiting.push(workspaceId, waiter);
      this.pump();
    });
  }

  /**
   * A slot for the next request of the shared queue, when one is free now and no run of this
   * process waits for one (those go first).
   */
  reserve(): SlotReservation | null {
    if (this.stopping || this.waiting.size > 0 || this.held >= this.limit()) return null;
    this.held += 1;
    const share = this.share();
    let settled = false;
    const settle = () => {
      if (settled) throw new Error('A slot reservation is bound or cancelled once.');
      settled = true;
      this.held -= 1;
    };
    return {
      fullWorkspaces: [...this.heldByWorkspace].flatMap(([workspaceId, held]) =>
        held >= share ? [workspaceId] : [],
      ),
      bind: (workspaceId) => {
        settle();
        return this.holder(workspaceId);
      },
      cancel: () => {
        settle();
        this.pump();
      },
    };
  }

  /**
   * A slot for a run that the run holding `asker` asks through `run_agent`: the asker's own while it
   * is free, else one of the process's, whichever comes first.
   */
  async nested(asker: LendableSlot, workspaceId: number, signal: AbortSignal): Promise<ReleaseSlot> {
    const lent = asker.tryBorrow();
    if (lent) return lent;
    const decided = new AbortController();
    const either = AbortSignal.any([signal, decided.signal]);
    const offers = [asker.borrow(either), this.acquire(workspaceId, either)];
    let taken: ReleaseSlot | undefined;
    try {
      taken = await Promise.race(offers);
      return taken;
    } finally {
      decided.abort();
      // Both may have been granted before the race was seen: the one not taken goes back.
      void Promise.allSettled(offers).then((results) => {
        for (const result of results)
          if (result.status === 'fulfilled' && result.value !== taken) result.value();
      });
    }
  }

  /** `listener` hears each time a held slot is given back (a reservation cancelled is not). */
  onFree(listener: () => void): void {
    this.freeListeners.push(listener);
  }

  /** The process stops: waiting requests are granted without the workspace share, to end at once. */
  stop(): void {
    this.stopping = true;
    this.pump();
  }

  private holder(workspaceId: number): ReleaseSlot {
    this.held += 1;
    this.heldByWorkspace.set(workspaceId, (this.heldByWorkspace.get(workspaceId) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const left = this.heldByWorkspace.get(workspaceId)! - 1;
      if (left === 0) this.heldByWorkspace.delete(workspaceId);
      else this.heldByWorkspace.set(workspaceId, left);
      this.pump();
      for (const listener of this.freeListeners) listener();
    };
  }

  /** Slots in use at most now. */
  private limit(): number {
    return this.urgent.busy && !this.stopping ? WHILE_URGENT : this.config.runs.concurrency;
  }

  /** One slot stays free for other workspaces (a stopping process grants everything in turn). */
  private share(): number {
    return this.stopping ? Infinity : Math.max(1, this.limit() - 1);
  }

  private pump(): void {
    const urgentHeld = this.urgent.busy && !this.stopping;
    const limit = this.limit();
    const share = this.share();
    const admits = (workspaceId: number) => (this.heldByWorkspace.get(workspaceId) ?? 0) < share;
    while (this.held < limit) {
      const waiter = this.waiting.take(admits);
      if (waiter === undefined) break;
      waiter.grant();
    }
    if (urgentHeld && this.waiting.size > 0 && !this.waitingForIdle) {
      this.waitingForIdle = true;
      void this.urgent.idle().then(() => {
        this.waitingForIdle = false;
        this.pump();
      });
    }
  }
}

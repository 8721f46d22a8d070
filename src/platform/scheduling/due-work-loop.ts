import { Logger } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';

/** The loop sleeps at most this long, in case another process created earlier work. */
const MAX_SLEEP_MS = 5_000;

export interface DueWork {
  /** Names the work in the log line of a failed pass. */
  name: string;
  /** Lanes draining at once; each holds one pool connection until it commits. */
  concurrency: number;
  /** Fires some due work; false once nothing more is due. */
  fireSome(): Promise<boolean>;
  /** When the next work falls due, or null when none is planned. */
  nextDueAt(): Promise<Date | null>;
  /** Wraps a whole pass (e.g. to run it as urgent work); runs it as is by default. */
  around?: (pass: () => Promise<void>) => Promise<void>;
}

/**
 * Fires work when it falls due, in every process: sleeps until the next due time (or MAX_SLEEP_MS)
 * and drains what is due in a few lanes. Stopping waits for a pass under way.
 */
export class DueWorkLoop {
  private readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly work: DueWork,
    private readonly clock: Clock,
  ) {
    this.logger = new Logger(`${work.name} scheduler`);
  }

  /** Catches up on what fell due while no process ran. */
  start(): void {
    this.wakeBy(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Work created in this process may be due before the timer: wake up by then. */
  wakeBy(at: number): void {
    if (this.stopped) return;
    if (this.timer && this.wakeAt !== null && this.wakeAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - this.clock.now().getTime()));
  }

  /** Fires every due piece of work now (tests with a controlled clock call this directly). */
  runDue(): Promise<void> {
    if (this.running) return this.running;
    const pass = async () => {
      await Promise.all(Array.from({ length: this.work.concurrency }, () => this.drain()));
    };
    this.running = (this.work.around ? this.work.around(pass) : pass()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.wakeAt = null;
    try {
      await this.runDue();
    } catch (error) {
      this.logger.error({ err: error }, `${this.work.name} scheduler cycle failed`);
    }
    if (this.stopped) return;
    const next = await this.work.nextDueAt().catch(() => null);
    const now = this.clock.now().getTime();
    this.wakeBy(Math.min(next ? next.getTime() : Infinity, now + MAX_SLEEP_MS));
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.work.fireSome())) {
      // keep going while something is due
    }
  }
}

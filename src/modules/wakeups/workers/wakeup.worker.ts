import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { WakeUpScheduled } from 'src/modules/wakeups/application/wakeups.events';
import { WakeUpFiringService } from 'src/modules/wakeups/application/wakeup-firing.service';

/** The worker sleeps at most this long, in case another process created an earlier wake-up. */
const MAX_SLEEP_MS = 5_000;
/** Batches one process fires at once; each holds one pool connection until it commits. */
const CONCURRENCY = 3;

/**
 * Runs in every process: wakes up when the next wake-up falls due (or after MAX_SLEEP_MS) and has
 * every due wake-up fired. Stopped before shutdown closes the database, waiting for a pass under way.
 */
@Injectable()
export class WakeUpWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WakeUpWorker.name);
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly firing: WakeUpFiringService,
    private readonly clock: Clock,
    private readonly urgent: UrgentWork,
  ) {}

  onApplicationBootstrap(): void {
    // Catches up on what fell due while no process ran.
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** A wake-up created in this process may be due before the timer: wake up by then. */
  @OnCommittedEvent(WakeUpScheduled)
  wakeUpBy({ dueAt }: WakeUpScheduled): void {
    this.schedule(dueAt.getTime());
  }

  /** Fires every due wake-up now (tests with a controlled clock call this directly). */
  async runDue(): Promise<void> {
    if (this.running) return this.running;
    // Agent answers go one at a time meanwhile, those of these firings included: messages first.
    this.running = this.urgent
      .run(async () => {
        await Promise.all(Array.from({ length: CONCURRENCY }, () => this.drain()));
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private schedule(at: number): void {
    if (this.stopped) return;
    if (this.timer && this.wakeAt !== null && this.wakeAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.wakeAt = at;
    this.timer = setTimeout(() => void this.tick(), Math.max(0, at - this.clock.now().getTime()));
  }

  private async tick(): Promise<void> {
    this.timer = null;
    this.wakeAt = null;
    try {
      await this.runDue();
    } catch (error) {
      this.logger.error({ err: error }, 'Wake-up scheduler cycle failed');
    }
    if (this.stopped) return;
    const next = await this.firing.nextDueAt().catch(() => null);
    const now = this.clock.now().getTime();
    this.schedule(Math.min(next ? next.getTime() : Infinity, now + MAX_SLEEP_MS));
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.firing.fireDueBatch()) > 0) {
      // keep going while something is due
    }
  }
}

import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { TriggerScheduled } from 'src/modules/triggers/application/triggers.events';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';

/** The worker sleeps at most this long, in case another process created an earlier schedule. */
const MAX_SLEEP_MS = 5_000;
/** Schedules one process fires at once; each holds one pool connection until it commits. */
const CONCURRENCY = 2;

/**
 * Runs in every process: wakes up when the next schedule falls due (or after MAX_SLEEP_MS) and has
 * every due schedule fired. Stopped before shutdown closes the database, waiting for a pass under way.
 */
@Injectable()
export class TriggerWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(TriggerWorker.name);
  private timer: NodeJS.Timeout | null = null;
  private wakeAt: number | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly firing: TriggerFiringService,
    private readonly clock: Clock,
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

  @OnCommittedEvent(TriggerScheduled)
  wakeUpBy({ dueAt }: TriggerScheduled): void {
    this.schedule(dueAt.getTime());
  }

  /** Fires every due schedule now (tests with a controlled clock call this directly). */
  async runDue(): Promise<void> {
    if (this.running) return this.running;
    this.running = Promise.all(Array.from({ length: CONCURRENCY }, () => this.drain()))
      .then(() => undefined)
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
      this.logger.error({ err: error }, 'Trigger scheduler cycle failed');
    }
    if (this.stopped) return;
    const next = await this.firing.nextDueAt().catch(() => null);
    const now = this.clock.now().getTime();
    this.schedule(Math.min(next ? next.getTime() : Infinity, now + MAX_SLEEP_MS));
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.firing.fireNextDue())) {
      // keep going while something is due
    }
  }
}

import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { DueWorkLoop } from 'src/platform/scheduling/due-work-loop';
import { TriggerScheduled } from 'src/modules/triggers/application/triggers.events';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';

/** Runs in every process: fires every due schedule, one firing at a time in each of two lanes. */
@Injectable()
export class TriggerWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: DueWorkLoop;

  constructor(firing: TriggerFiringService, clock: Clock) {
    this.loop = new DueWorkLoop(
      {
        name: 'Trigger',
        concurrency: 2,
        fireSome: () => firing.fireNextDue(),
        nextDueAt: () => firing.nextDueAt(),
      },
      clock,
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  @OnCommittedEvent(TriggerScheduled)
  wakeUpBy({ dueAt }: TriggerScheduled): void {
    this.loop.wakeBy(dueAt.getTime());
  }

  /** Fires every due schedule now (tests with a controlled clock call this directly). */
  runDue(): Promise<void> {
    return this.loop.runDue();
  }
}

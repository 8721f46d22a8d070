import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { DueWorkLoop } from 'src/platform/scheduling/due-work-loop';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { TriggerScheduled } from 'src/modules/triggers/application/triggers.events';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';

/** Runs in every process: fires every due schedule, in batches, three at once. */
@Injectable()
export class TriggerWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: DueWorkLoop;

  constructor(firing: TriggerFiringService, clock: Clock, urgent: UrgentWork) {
    this.loop = new DueWorkLoop(
      {
        name: 'Trigger',
        concurrency: 3,
        fireSome: () => firing.fireDueBatch(),
        nextDueAt: () => firing.nextDueAt(),
        // As for wake-ups: agent answers, those of these firings included, wait for the burst.
        around: (pass) => urgent.run(pass),
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

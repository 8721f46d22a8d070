import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { DueWorkLoop } from 'src/platform/scheduling/due-work-loop';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { WakeUpScheduled } from 'src/modules/wakeups/application/wakeups.events';
import { WakeUpFiringService } from 'src/modules/wakeups/application/wakeup-firing.service';

/** Runs in every process: fires every due wake-up, in batches, three at once. */
@Injectable()
export class WakeUpWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: DueWorkLoop;

  constructor(firing: WakeUpFiringService, clock: Clock, urgent: UrgentWork) {
    this.loop = new DueWorkLoop(
      {
        name: 'Wake-up',
        concurrency: 3,
        fireSome: async () => (await firing.fireDueBatch()) > 0,
        nextDueAt: () => firing.nextDueAt(),
        // Agent answers go one at a time meanwhile, those of these firings included: messages first.
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

  @OnCommittedEvent(WakeUpScheduled)
  wakeUpBy({ dueAt }: WakeUpScheduled): void {
    this.loop.wakeBy(dueAt.getTime());
  }

  /** Fires every due wake-up now (tests with a controlled clock call this directly). */
  runDue(): Promise<void> {
    return this.loop.runDue();
  }
}

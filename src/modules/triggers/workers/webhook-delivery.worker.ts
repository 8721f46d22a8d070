import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { DueWorkLoop } from 'src/platform/scheduling/due-work-loop';
import { WebhookReceived } from 'src/modules/triggers/application/triggers.events';
import { WebhookFiringService } from 'src/modules/triggers/application/webhook-firing.service';

/**
 * Deliveries arriving together are processed together: the worker starts this long after the first
 * (their answers do not wait for it), rather than once per delivery while they stream in.
 */
const GATHER_MS = 50;

/**
 * Runs in every process: processes stored webhook deliveries in batches, one batch at a time, so
 * that a trigger fires in its deliveries' arrival order in this process (a batch takes the oldest).
 */
@Injectable()
export class WebhookDeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly loop: DueWorkLoop;

  constructor(
    firing: WebhookFiringService,
    private readonly clock: Clock,
  ) {
    this.loop = new DueWorkLoop(
      {
        name: 'Webhook delivery',
        concurrency: 1,
        fireSome: () => firing.processBatch(),
        nextDueAt: async () => {
          const due = await firing.nextDueAt();
          return due && new Date(due.getTime() + GATHER_MS);
        },
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

  @OnCommittedEvent(WebhookReceived)
  wakeUp(): void {
    this.loop.wakeBy(this.clock.now().getTime() + GATHER_MS);
  }

  /** Processes every stored delivery now (tests call this to wait for the processing). */
  async runDue(): Promise<void> {
    await this.loop.runDue();
    // A pass under way may have claimed its last batch before the latest delivery was stored.
    await this.loop.runDue();
  }
}

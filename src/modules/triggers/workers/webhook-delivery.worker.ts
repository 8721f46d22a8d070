import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { OnCommittedEvent } from 'src/platform/events/in-process-events';
import { DueWorkLoop } from 'src/platform/scheduling/due-work-loop';
import { WebhookReceived } from 'src/modules/triggers/application/triggers.events';
import { WebhookFiringService } from 'src/modules/triggers/application/webhook-firing.service';

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

  @OnCommittedEvent(WebhookReceived)
  wakeUp(): void {
    this.loop.wakeBy(this.clock.now().getTime());
  }

  /** Processes every stored delivery now (tests call this to wait for the processing). */
  runDue(): Promise<void> {
    return this.loop.runDue();
  }
}

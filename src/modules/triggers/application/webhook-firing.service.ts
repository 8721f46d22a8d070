import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { TriggerRepository } from 'src/modules/triggers/application/ports/trigger.repository';
import {
  PendingDelivery,
  WebhookOutcome,
  WebhookRepository,
} from 'src/modules/triggers/application/ports/webhook.repository';
import { TriggerFiringService } from 'src/modules/triggers/application/trigger-firing.service';
import { DEFAULT_EXECUTIONS_PER_DAY, Trigger, WebhookConfig } from 'src/modules/triggers/domain/trigger';
import { matchesPayload, parsePayloadFilter } from 'src/modules/triggers/domain/payload-filter';

const DAY_MS = 86_400_000;

type Outcome = Pick<WebhookOutcome, 'status' | 'conversationId' | 'error'>;

/**
 * Processes stored deliveries after their answer: each is claimed with FOR UPDATE SKIP LOCKED and,
 * for every enabled trigger listening to its source, its outcome (not matched, rate limited,
 * started or failed) and the conversation it opened commit with the delivery's `processed` mark.
 */
@Injectable()
export class WebhookFiringService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly triggers: TriggerRepository,
    private readonly firing: TriggerFiringService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
  ) {}

  async nextDueAt(): Promise<Date | null> {
    return (await this.webhooks.hasPendingDeliveries()) ? this.clock.now() : null;
  }

  /** Processes the oldest pending delivery; false when none is left. */
  async processNext(): Promise<boolean> {
    let claimed: PendingDelivery | null = null;
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.webhooks.claimPendingDelivery();
        if (claimed) await this.process(claimed);
      });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
    return claimed !== null;
  }

  private async process(delivery: PendingDelivery): Promise<void> {
    const payload: unknown = JSON.parse(delivery.payload);
    const listening = await this.webhooks.enabledTriggersOfSource(
      delivery.workspaceId,
      delivery.webhookSourceId,
    );
    for (const trigger of listening) {
      const outcome = await this.fire(trigger, delivery, payload);
      await this.webhooks.recordOutcome({
        workspaceId: delivery.workspaceId,
        webhookRequestId: delivery.id,
        triggerId: trigger.id,
        ...outcome,
      });
    }
    await this.webhooks.completeDelivery(delivery.workspaceId, delivery.id, {
      status: 'processed',
      error: null,
    });
  }

  private async fire(trigger: Trigger, delivery: PendingDelivery, payload: unknown): Promise<Outcome> {
    if (trigger.spec.kind !== 'webhook') return failed('Not a webhook trigger.');
    const { configuration, executionPerDayLimitOverride } = trigger.spec;
    const miss = mismatch(configuration, delivery.event, payload);
    if (miss !== null) return { status: 'not_matched', conversationId: null, error: miss };
    await this.webhooks.lockTrigger(trigger.workspaceId, trigger.id);
    const limit = executionPerDayLimitOverride ?? DEFAULT_EXECUTIONS_PER_DAY;
    const since = new Date(this.clock.now().getTime() - DAY_MS);
    if ((await this.webhooks.countStartedSince(trigger.workspaceId, trigger.id, since)) >= limit) {
      return {
        status: 'rate_limited',
        conversationId: null,
        error: `The trigger started ${limit} conversations in the last 24 hours, its limit.`,
      };
    }
    const fragments = configuration.includePayload
      ? [{ title: fragmentTitle(delivery), content: delivery.payload, contentType: 'application/json' }]
      : [];
    const opened = await this.firing.openNow(trigger, fragments);
    if ('error' in opened) {
      if (opened.disable) await this.triggers.update(trigger, { status: 'disabled', nextFireAt: null });
      return failed(opened.error);
    }
    return { status: 'workflow_start_succeeded', conversationId: opened.conversationId, error: null };
  }

  /** In its own transaction, the processing having rolled back: the delivery is not retried. */
  private async recordFailure(delivery: PendingDelivery, error: unknown): Promise<void> {
    this.log.warn(
      WebhookFiringService.name,
      { err: error, delivery: delivery.id },
      'Webhook processing failed',
    );
    await this.unitOfWork
      .run(async () => {
        const listening = await this.webhooks.enabledTriggersOfSource(
          delivery.workspaceId,
          delivery.webhookSourceId,
        );
        const message = error instanceof Error ? error.message : String(error);
        for (const trigger of listening) {
          await this.webhooks.recordOutcome({
            workspaceId: delivery.workspaceId,
            webhookRequestId: delivery.id,
            triggerId: trigger.id,
            ...failed(message),
          });
        }
        await this.webhooks.completeDelivery(delivery.workspaceId, delivery.id, {
          status: 'failed',
          error: message,
        });
      })
      .catch((failure: unknown) =>
        this.log.error(
          WebhookFiringService.name,
          { err: failure },
          'Could not record a failed webhook delivery',
        ),
      );
  }
}

function failed(error: string): Outcome {
  return { status: 'workflow_start_failed', conversationId: null, error };
}

/** Why the delivery is not for this trigger, or null when it is. */
function mismatch(configuration: WebhookConfig, event: string | null, payload: unknown): string | null {
  if (configuration.event !== undefined && configuration.event !== event) {
    return `The trigger listens to event "${configuration.event}"; the delivery's is ${event === null ? 'not given' : `"${event}"`}.`;
  }
  if (
    configuration.filter !== undefined &&
    !matchesPayload(parsePayloadFilter(configuration.filter), payload)
  ) {
    return "The payload does not meet the trigger's filter.";
  }
  return null;
}

function fragmentTitle(delivery: PendingDelivery): string {
  const parts = ['webhook', delivery.event, delivery.deliveryId].filter((part) => part !== null);
  return `${parts.join(' ')}.json`;
}

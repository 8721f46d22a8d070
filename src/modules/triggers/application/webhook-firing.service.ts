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
import {
  PayloadFilter,
  matchesPayload,
  parsePayloadFilter,
} from 'src/modules/triggers/domain/payload-filter';
import { TriggersConfig } from 'src/modules/triggers/triggers.config';

const DAY_MS = 86_400_000;

type Outcome = Pick<WebhookOutcome, 'status' | 'conversationId' | 'error'>;

/** A claimed delivery with, for each trigger of its source, its outcome when known without firing. */
interface Sorted {
  delivery: PendingDelivery;
  triggers: { trigger: Trigger; decided: Outcome | null }[];
}

/** What firing the matched deliveries of one batch has done so far to their triggers. */
interface BatchFirings {
  /** Conversations opened per trigger, not yet counted by the database (their outcomes are not written). */
  started: Map<number, number>;
  /** Triggers a firing disabled: the batch's later deliveries no longer reach them. */
  disabled: Set<number>;
}

/**
 * Processes stored deliveries after their answer, in batches claimed with FOR UPDATE SKIP LOCKED
 * (oldest first): the triggers of their sources are read once, the deliveries no trigger matches
 * are decided without a further query, those that match fire their trigger in delivery order
 * under its lock (its daily limit), and every outcome (not matched, rate limited, started or
 * failed), the conversations opened and the deliveries' `processed` marks commit together. When
 * the batch fails it is undone and its deliveries are processed one per transaction, so only the
 * bad one is recorded `failed`.
 */
@Injectable()
export class WebhookFiringService {
  private readonly batchSize: number;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly triggers: TriggerRepository,
    private readonly firing: TriggerFiringService,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly log: OperatorLog,
    config: TriggersConfig,
  ) {
    this.batchSize = config.webhookProcessingBatchSize;
  }

  async nextDueAt(): Promise<Date | null> {
    return (await this.webhooks.hasPendingDeliveries()) ? this.clock.now() : null;
  }

  /**
   * Claims and processes a batch of the oldest pending deliveries; true when the batch was full (more
   * may be waiting), false otherwise: those stored since wake the worker again.
   */
  async processBatch(): Promise<boolean> {
    let claimed: PendingDelivery[] = [];
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.webhooks.claimPendingDeliveries(this.batchSize);
        if (claimed.length > 0) await this.process(claimed);
      });
    } catch (error) {
      if (claimed.length === 0) throw error;
      if (claimed.length === 1) {
        await this.recordFailure(claimed[0], error);
      } else {
        this.log.warn(
          WebhookFiringService.name,
          { err: error, deliveries: claimed.length },
          'Webhook batch failed; processing its deliveries one by one',
        );
        // In order, one at a time: a trigger's deliveries still fire in the order they arrived.
        for (const delivery of claimed) await this.processAlone(delivery);
      }
    }
    return claimed.length === this.batchSize;
  }

  /** One delivery in its own transaction, unless another process has taken it since. */
  private async processAlone(delivery: PendingDelivery): Promise<void> {
    let claimed: PendingDelivery | null = null;
    try {
      await this.unitOfWork.run(async () => {
        claimed = await this.webhooks.claimPendingDelivery(delivery.workspaceId, delivery.id);
        if (claimed) await this.process([claimed]);
      });
    } catch (error) {
      if (!claimed) throw error;
      await this.recordFailure(claimed, error);
    }
  }

  /** Processes claimed deliveries in the current transaction, in their order. */
  private async process(deliveries: PendingDelivery[]): Promise<void> {
    const sorted = await this.sort(deliveries);
    const matched = new Map<number, Trigger>();
    for (const { triggers } of sorted) {
      for (const { trigger, decided } of triggers) if (decided === null) matched.set(trigger.id, trigger);
    }
    if (matched.size > 0) await this.webhooks.lockTriggers([...matched.values()]);
    const firings: BatchFirings = { started: new Map(), disabled: new Set() };
    const outcomes: WebhookOutcome[] = [];
    for (const { delivery, triggers } of sorted) {
      for (const { trigger, decided } of triggers) {
        if (firings.disabled.has(trigger.id)) continue;
        outcomes.push({
          workspaceId: delivery.workspaceId,
          webhookRequestId: delivery.id,
          triggerId: trigger.id,
          ...(decided ?? (await this.fire(trigger, delivery, firings))),
        });
      }
    }
    await this.webhooks.recordOutcomes(outcomes);
    await this.webhooks.completeDeliveries(deliveries, { status: 'processed', error: null });
  }

  /**
   * Each delivery with the enabled triggers of its source (read once for the batch) and, for each,
   * its outcome when the trigger does not match; a filter is parsed once for the batch.
   */
  private async sort(deliveries: PendingDelivery[]): Promise<Sorted[]> {
    const listening = await this.webhooks.enabledTriggersOfSources(uniqueSources(deliveries));
    const bySource = new Map<string, Trigger[]>();
    for (const { webhookSourceId, trigger } of listening) {
      const key = sourceKey(trigger.workspaceId, webhookSourceId);
      const triggers = bySource.get(key) ?? [];
      triggers.push(trigger);
      bySource.set(key, triggers);
    }
    const filters = new Map<number, PayloadFilter>();
    const filterOf = (trigger: Trigger, filter: string) => {
      const parsed = filters.get(trigger.id) ?? parsePayloadFilter(filter);
      filters.set(trigger.id, parsed);
      return parsed;
    };
    return deliveries.map((delivery) => {
      const payload: unknown = JSON.parse(delivery.payload);
      const triggers = bySource.get(sourceKey(delivery.workspaceId, delivery.webhookSourceId)) ?? [];
      return {
        delivery,
        triggers: triggers.map((trigger) => {
          if (trigger.spec.kind !== 'webhook') return { trigger, decided: failed('Not a webhook trigger.') };
          const { configuration } = trigger.spec;
          const filter = configuration.filter;
          const miss = mismatch(configuration, delivery.event, payload, () => filterOf(trigger, filter!));
          return {
            trigger,
            decided:
              miss === null ? null : { status: 'not_matched' as const, conversationId: null, error: miss },
          };
        }),
      };
    });
  }

  /** Fires a matched trigger, locked, within its daily limit (the conversations this batch opened count). */
  private async fire(trigger: Trigger, delivery: PendingDelivery, firings: BatchFirings): Promise<Outcome> {
    if (trigger.spec.kind !== 'webhook') return failed('Not a webhook trigger.');
    const { configuration, executionPerDayLimitOverride } = trigger.spec;
    const limit = executionPerDayLimitOverride ?? DEFAULT_EXECUTIONS_PER_DAY;
    const since = new Date(this.clock.now().getTime() - DAY_MS);
    const startedHere = firings.started.get(trigger.id) ?? 0;
    const startedBefore = await this.webhooks.countStartedSince(trigger.workspaceId, trigger.id, since);
    if (startedBefore + startedHere >= limit) {
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
      if (opened.disable) {
        await this.triggers.update(trigger, { status: 'disabled', nextFireAt: null });
        firings.disabled.add(trigger.id);
      }
      return failed(opened.error);
    }
    firings.started.set(trigger.id, startedHere + 1);
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
        const listening = await this.webhooks.enabledTriggersOfSources(uniqueSources([delivery]));
        const message = error instanceof Error ? error.message : String(error);
        await this.webhooks.recordOutcomes(
          listening.map(({ trigger }) => ({
            workspaceId: delivery.workspaceId,
            webhookRequestId: delivery.id,
            triggerId: trigger.id,
            ...failed(message),
          })),
        );
        await this.webhooks.completeDeliveries([delivery], { status: 'failed', error: message });
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

const sourceKey = (workspaceId: number, webhookSourceId: number) => `${workspaceId}:${webhookSourceId}`;

function uniqueSources(deliveries: PendingDelivery[]) {
  const sources = new Map(
    deliveries.map(({ workspaceId, webhookSourceId }) => [
      sourceKey(workspaceId, webhookSourceId),
      { workspaceId, webhookSourceId },
    ]),
  );
  return [...sources.values()];
}

/** Why the delivery is not for this trigger, or null when it is. */
function mismatch(
  configuration: WebhookConfig,
  event: string | null,
  payload: unknown,
  filter: () => PayloadFilter,
): string | null {
  if (configuration.event !== undefined && configuration.event !== event) {
    return `The trigger listens to event "${configuration.event}"; the delivery's is ${event === null ? 'not given' : `"${event}"`}.`;
  }
  if (configuration.filter !== undefined && !matchesPayload(filter(), payload)) {
    return "The payload does not meet the trigger's filter.";
  }
  return null;
}

function fragmentTitle(delivery: PendingDelivery): string {
  const parts = ['webhook', delivery.event, delivery.deliveryId].filter((part) => part !== null);
  return `${parts.join(' ')}.json`;
}

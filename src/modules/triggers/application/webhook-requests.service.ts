import { Injectable } from '@nestjs/common';
import { WebhookRepository } from 'src/modules/triggers/application/ports/webhook.repository';
import type { WebhookRequestView } from 'src/modules/triggers/application/views/webhook-source.view';
import type { Trigger } from 'src/modules/triggers/domain/trigger';

/** The recorded outcomes of a trigger's webhook deliveries, for a caller who can read the trigger. */
@Injectable()
export class WebhookRequestsService {
  constructor(private readonly webhooks: WebhookRepository) {}

  async list(
    trigger: Trigger,
    page: { limit: number; beforeId: number | null },
  ): Promise<{ items: WebhookRequestView[]; next: number | null }> {
    const rows = await this.webhooks.listOutcomes(trigger.workspaceId, trigger.id, {
      limit: page.limit + 1,
      beforeId: page.beforeId,
    });
    const items = rows.slice(0, page.limit).map((row) => ({
      id: row.id,
      timestamp: row.createdAt.getTime(),
      status: row.status,
      event: row.event,
      deliveryId: row.deliveryId,
      conversationId: row.conversationSId,
      error: row.error,
    }));
    return { items, next: rows.length > page.limit ? items[items.length - 1].id : null };
  }
}

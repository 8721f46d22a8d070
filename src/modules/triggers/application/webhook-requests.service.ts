import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConversationsService } from 'src/modules/conversations/conversations.api';
import { WebhookRepository } from 'src/modules/triggers/application/ports/webhook.repository';
import type { WebhookRequestView } from 'src/modules/triggers/application/views/webhook-source.view';
import type { Trigger } from 'src/modules/triggers/domain/trigger';

/** The recorded outcomes of a trigger's webhook deliveries, for a caller who can read the trigger. */
@Injectable()
export class WebhookRequestsService {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly conversations: ConversationsService,
  ) {}

  /**
   * A page of outcomes, newest first. An outcome names its conversation only when the caller's key
   * reads conversations and the caller can read that one (the editor's, as a rule): a reader of the
   * agent learns what the deliveries did, not where.
   */
  async list(
    caller: Caller,
    trigger: Trigger,
    page: { limit: number; beforeId: number | null },
  ): Promise<{ items: WebhookRequestView[]; next: number | null }> {
    const rows = await this.webhooks.listOutcomes(trigger.workspaceId, trigger.id, {
      limit: page.limit + 1,
      beforeId: page.beforeId,
    });
    const shown = rows.slice(0, page.limit);
    const readable = caller.hasScope('read:conversation')
      ? await this.conversations.readableAmong(
          caller,
          shown.flatMap(({ conversationId }) => (conversationId === null ? [] : [conversationId])),
        )
      : new Map<number, string>();
    const items = shown.map((row) => ({
      id: row.id,
      timestamp: row.createdAt.getTime(),
      status: row.status,
      event: row.event,
      deliveryId: row.deliveryId,
      conversationId: row.conversationId === null ? null : (readable.get(row.conversationId) ?? null),
      error: row.error,
    }));
    return { items, next: rows.length > page.limit ? items[items.length - 1].id : null };
  }
}

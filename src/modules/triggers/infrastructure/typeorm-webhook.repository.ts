import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  ListeningTrigger,
  NewDelivery,
  NewWebhookSource,
  NewWebhookSourceView,
  PendingDelivery,
  WebhookOutcome,
  WebhookOutcomeListing,
  WebhookRepository,
  WebhookSourceChanges,
} from 'src/modules/triggers/application/ports/webhook.repository';
import type {
  WebhookRequestTriggerStatus,
  WebhookSource,
  WebhookSourceView,
} from 'src/modules/triggers/domain/webhook-source';
import {
  TriggerEntity,
  WebhookRequestEntity,
  WebhookSourceEntity,
  WebhookSourceViewEntity,
} from 'src/modules/triggers/infrastructure/triggers.entities';
import { toTrigger } from 'src/modules/triggers/infrastructure/typeorm-trigger.repository';

const toSource = (e: WebhookSourceEntity): WebhookSource => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  name: e.name,
  provider: e.provider,
  signatureAlgorithm: e.signatureAlgorithm,
  secret: e.secret,
  signatureHeader: e.signatureHeader,
  timestampHeader: e.timestampHeader,
  timestampToleranceSeconds: e.timestampToleranceSeconds,
  eventHeader: e.eventHeader,
  deliveryHeader: e.deliveryHeader,
  createdAt: e.createdAt,
  updatedAt: e.updatedAt,
});

const toPendingDelivery = (e: WebhookRequestEntity): PendingDelivery => ({
  id: e.id,
  workspaceId: e.workspaceId,
  webhookSourceId: e.webhookSourceId,
  deliveryId: e.deliveryId,
  event: e.event,
  payload: e.payload ?? '{}',
  receivedAt: e.createdAt,
});

const toView = (e: WebhookSourceViewEntity): WebhookSourceView => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  webhookSourceId: e.webhookSourceId,
  spaceId: e.spaceId,
  createdAt: e.createdAt,
});

@Injectable()
export class TypeormWebhookRepository extends WebhookRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get sources() {
    return this.db.repository(WebhookSourceEntity);
  }

  private get views() {
    return this.db.repository(WebhookSourceViewEntity);
  }

  async createSource(source: NewWebhookSource): Promise<WebhookSource> {
    return toSource(await this.sources.save(this.sources.create(source)));
  }

  async listSources(workspaceId: number): Promise<WebhookSource[]> {
    return (await this.sources.find({ where: { workspaceId }, order: { id: 'ASC' } })).map(toSource);
  }

  async findSource(workspaceId: number, sId: string): Promise<WebhookSource | null> {
    const found = await this.sources.findOneBy({ workspaceId, sId });
    return found && toSource(found);
  }

  async findSourceForDelivery(workspaceSId: string, sourceSId: string): Promise<WebhookSource | null> {
    const found = await this.sources
      .createQueryBuilder('s')
      .innerJoin('workspaces', 'w', 'w.id = s.workspace_id')
      .where('s.s_id = :sourceSId AND w.s_id = :workspaceSId', { sourceSId, workspaceSId })
      .getOne();
    return found && toSource(found);
  }

  async sourceExists(workspaceId: number, id: number): Promise<boolean> {
    return (await this.sources.countBy({ workspaceId, id })) > 0;
  }

  async sourceNameTaken(workspaceId: number, name: string, exceptId: number | null): Promise<boolean> {
    const found = await this.sources.findOneBy({ workspaceId, name });
    return found !== null && found.id !== exceptId;
  }

  async updateSource(source: WebhookSource, changes: WebhookSourceChanges): Promise<WebhookSource> {
    const updatedAt = new Date();
    await this.sources.update({ id: source.id, workspaceId: source.workspaceId }, { ...changes, updatedAt });
    return { ...source, ...changes, updatedAt };
  }

  async deleteSource(workspaceId: number, id: number): Promise<void> {
    await this.sources.delete({ workspaceId, id });
  }

  async createView(view: NewWebhookSourceView): Promise<WebhookSourceView | null> {
    const rows = await this.db.manager().query<{ id: number }[]>(
      `INSERT INTO webhook_source_views (s_id, workspace_id, webhook_source_id, space_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT "UQ_webhook_source_views_space" DO NOTHING RETURNING id`,
      [view.sId, view.workspaceId, view.webhookSourceId, view.spaceId],
    );
    if (rows.length === 0) return null;
    const created = await this.views.findOneByOrFail({ workspaceId: view.workspaceId, id: rows[0].id });
    return toView(created);
  }

  async listViews(
    workspaceId: number,
    where: { webhookSourceId?: number; spaceId?: number; ids?: number[] },
  ): Promise<WebhookSourceView[]> {
    const rows = await this.views.find({
      where: {
        workspaceId,
        ...(where.webhookSourceId !== undefined ? { webhookSourceId: where.webhookSourceId } : {}),
        ...(where.spaceId !== undefined ? { spaceId: where.spaceId } : {}),
        ...(where.ids !== undefined ? { id: In(where.ids) } : {}),
      },
      order: { id: 'ASC' },
    });
    return rows.map(toView);
  }

  async findView(workspaceId: number, sId: string): Promise<WebhookSourceView | null> {
    const found = await this.views.findOneBy({ workspaceId, sId });
    return found && toView(found);
  }

  async deleteView(workspaceId: number, id: number): Promise<void> {
    await this.views.delete({ workspaceId, id });
  }

  async countTriggersOnViews(workspaceId: number, viewIds: number[]): Promise<number> {
    if (viewIds.length === 0) return 0;
    return this.db.repository(TriggerEntity).countBy({ workspaceId, webhookSourceViewId: In(viewIds) });
  }

  async enabledTriggersOfSources(
    sources: { workspaceId: number; webhookSourceId: number }[],
  ): Promise<ListeningTrigger[]> {
    if (sources.length === 0) return [];
    const rows = await this.db
      .repository(TriggerEntity)
      .createQueryBuilder('t')
      .innerJoin(WebhookSourceViewEntity, 'v', 'v.id = t.webhook_source_view_id')
      .addSelect('v.webhook_source_id', 'webhook_source_id')
      .where(
        `t.kind = 'webhook' AND t.status = 'enabled' AND (t.workspace_id, v.webhook_source_id) IN
           (SELECT * FROM unnest(:workspaceIds::int[], :sourceIds::int[]))`,
        {
          workspaceIds: sources.map((source) => source.workspaceId),
          sourceIds: sources.map((source) => source.webhookSourceId),
        },
      )
      .orderBy('t.id', 'ASC')
      .getRawAndEntities<{ t_id: number; webhook_source_id: number }>();
    // A trigger listens through one view, so to one source.
    const sourceOf = new Map(rows.raw.map((row) => [row.t_id, row.webhook_source_id]));
    return rows.entities.map((entity) => ({
      webhookSourceId: sourceOf.get(entity.id)!,
      trigger: toTrigger(entity),
    }));
  }

  async recordDelivery(delivery: NewDelivery): Promise<number | null> {
    // ON CONFLICT rather than catching the violation: a replay (its delivery id or its signature
    // seen) costs one statement and no error; a source deleted since the route found it (cached)
    // is no row either.
    const rows = await this.db.manager().query<{ id: number }[]>(
      `INSERT INTO webhook_requests (workspace_id, webhook_source_id, delivery_id, event, status, payload, signature)
       SELECT $1, $2, $3, $4, 'received', $5, $6
       WHERE EXISTS (SELECT 1 FROM webhook_sources WHERE id = $2 AND workspace_id = $1)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        delivery.workspaceId,
        delivery.webhookSourceId,
        delivery.deliveryId,
        delivery.event,
        delivery.payload,
        delivery.signature,
      ],
    );
    return rows[0]?.id ?? null;
  }

  async claimPendingDeliveries(limit: number): Promise<PendingDelivery[]> {
    const found = await this.pending().orderBy('r.id', 'ASC').limit(limit).getMany();
    return found.map(toPendingDelivery);
  }

  async claimPendingDelivery(workspaceId: number, id: number): Promise<PendingDelivery | null> {
    const found = await this.pending()
      .andWhere('r.workspace_id = :workspaceId AND r.id = :id', { workspaceId, id })
      .getOne();
    return found && toPendingDelivery(found);
  }

  /** Deliveries not processed yet that no other transaction holds, locked for this one. */
  private pending() {
    return this.db
      .repository(WebhookRequestEntity)
      .createQueryBuilder('r')
      .where("r.status = 'received'")
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked');
  }

  async hasPendingDeliveries(): Promise<boolean> {
    const rows = await this.db
      .manager()
      .query<unknown[]>("SELECT 1 FROM webhook_requests WHERE status = 'received' LIMIT 1");
    return rows.length > 0;
  }

  async completeDeliveries(
    deliveries: { workspaceId: number; id: number }[],
    outcome: { status: 'processed' | 'failed'; error: string | null },
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db.manager().query(
      `UPDATE webhook_requests r SET status = $3, error = $4, payload = NULL
       FROM unnest($1::int[], $2::int[]) AS d(workspace_id, id)
       WHERE r.workspace_id = d.workspace_id AND r.id = d.id`,
      [deliveries.map((d) => d.workspaceId), deliveries.map((d) => d.id), outcome.status, outcome.error],
    );
  }

  async lockTriggers(triggers: { workspaceId: number; id: number }[]): Promise<void> {
    if (triggers.length === 0) return;
    const ordered = [...triggers].sort((a, b) => a.workspaceId - b.workspaceId || a.id - b.id);
    // A function scan yields its rows in array order: the locks are taken in that order.
    await this.db.manager().query(
      `SELECT pg_advisory_xact_lock(hashtextextended('webhook-trigger:' || t.workspace_id || ':' || t.id, 0))
       FROM unnest($1::int[], $2::int[]) AS t(workspace_id, id)`,
      [ordered.map((t) => t.workspaceId), ordered.map((t) => t.id)],
    );
  }

  async countStartedSince(workspaceId: number, triggerId: number, since: Date): Promise<number> {
    const rows = await this.db.manager().query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM webhook_request_triggers
       WHERE workspace_id = $1 AND trigger_id = $2 AND created_at >= $3 AND status = 'workflow_start_succeeded'`,
      [workspaceId, triggerId, since],
    );
    return rows[0].n;
  }

  async recordOutcomes(outcomes: WebhookOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.manager().query(
      `INSERT INTO webhook_request_triggers (workspace_id, webhook_request_id, trigger_id, status, conversation_id, error)
       SELECT workspace_id, webhook_request_id, trigger_id, status, conversation_id, error
       FROM unnest($1::int[], $2::int[], $3::int[], $4::varchar[], $5::int[], $6::text[])
         WITH ORDINALITY AS o(workspace_id, webhook_request_id, trigger_id, status, conversation_id, error, n)
       ORDER BY n
       ON CONFLICT ON CONSTRAINT "UQ_webhook_request_triggers" DO NOTHING`,
      [
        outcomes.map((o) => o.workspaceId),
        outcomes.map((o) => o.webhookRequestId),
        outcomes.map((o) => o.triggerId),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.conversationId),
        outcomes.map((o) => o.error),
      ],
    );
  }

  async listOutcomes(
    workspaceId: number,
    triggerId: number,
    page: { limit: number; beforeId: number | null },
  ): Promise<WebhookOutcomeListing[]> {
    const rows = await this.db.manager().query<
      {
        id: number;
        status: WebhookRequestTriggerStatus;
        created_at: Date;
        event: string | null;
        delivery_id: string | null;
        conversation_id: number | null;
        error: string | null;
      }[]
    >(
      `SELECT o.id, o.status, o.created_at, r.event, r.delivery_id, o.conversation_id, o.error
       FROM webhook_request_triggers o
       JOIN webhook_requests r ON r.id = o.webhook_request_id
       WHERE o.workspace_id = $1 AND o.trigger_id = $2 AND ($3::int IS NULL OR o.id < $3)
       ORDER BY o.id DESC LIMIT $4`,
      [workspaceId, triggerId, page.beforeId, page.limit],
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      createdAt: row.created_at,
      event: row.event,
      deliveryId: row.delivery_id,
      conversationId: row.conversation_id,
      error: row.error,
    }));
  }
}

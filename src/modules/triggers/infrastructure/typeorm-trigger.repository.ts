import { Injectable } from '@nestjs/common';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  FiringOutcome,
  NewFiring,
  ScheduleChange,
  NewTrigger,
  TriggerChanges,
  TriggerFiring,
  TriggerRepository,
} from 'src/modules/triggers/application/ports/trigger.repository';
import type {
  ScheduleConfig,
  Trigger,
  TriggerSpec,
  WebhookConfig,
} from 'src/modules/triggers/domain/trigger';
import { TriggerEntity, TriggerFiringEntity } from 'src/modules/triggers/infrastructure/triggers.entities';
import { LessThan } from 'typeorm';

const toSpec = (e: TriggerEntity): TriggerSpec =>
  e.kind === 'schedule'
    ? { kind: 'schedule', configuration: e.configuration as ScheduleConfig }
    : {
        kind: 'webhook',
        configuration: e.configuration as WebhookConfig,
        webhookSourceViewId: e.webhookSourceViewId ?? 0,
        executionPerDayLimitOverride: e.executionPerDayLimitOverride,
      };

export const toTrigger = (e: TriggerEntity): Trigger => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  agentSId: e.agentSId,
  name: e.name,
  editorId: e.editorId,
  customPrompt: e.customPrompt,
  status: e.status,
  origin: e.origin,
  sourceConversationId: e.sourceConversationId,
  spec: toSpec(e),
  nextFireAt: e.nextFireAt,
  createdAt: e.createdAt,
});

const specColumns = (spec: TriggerSpec) => ({
  kind: spec.kind,
  configuration: spec.configuration,
  webhookSourceViewId: spec.kind === 'webhook' ? spec.webhookSourceViewId : null,
  executionPerDayLimitOverride: spec.kind === 'webhook' ? spec.executionPerDayLimitOverride : null,
});

const toFiring = (e: TriggerFiringEntity): TriggerFiring => ({
  id: e.id,
  workspaceId: e.workspaceId,
  triggerId: e.triggerId,
  dueAt: e.dueAt,
  status: e.status,
  conversationId: e.conversationId,
  error: e.error,
  createdAt: e.createdAt,
});

@Injectable()
export class TypeormTriggerRepository extends TriggerRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get triggers() {
    return this.db.repository(TriggerEntity);
  }

  private get firings() {
    return this.db.repository(TriggerFiringEntity);
  }

  async createMany(triggers: NewTrigger[]): Promise<Trigger[]> {
    if (triggers.length === 0) return [];
    const entities = triggers.map(({ spec, ...rest }) =>
      this.triggers.create({ ...rest, ...specColumns(spec) }),
    );
    return (await this.triggers.save(entities)).map(toTrigger);
  }

  async listForAgent(workspaceId: number, agentSId: string): Promise<Trigger[]> {
    const rows = await this.triggers.find({ where: { workspaceId, agentSId }, order: { id: 'ASC' } });
    return rows.map(toTrigger);
  }

  async countFromConversation(workspaceId: number, conversationId: number): Promise<number> {
    return this.triggers.countBy({ workspaceId, sourceConversationId: conversationId });
  }

  async find(workspaceId: number, sId: string): Promise<Trigger | null> {
    const found = await this.triggers.findOneBy({ workspaceId, sId });
    return found && toTrigger(found);
  }

  async lockAgent(workspaceId: number, agentSId: string): Promise<void> {
    await this.db
      .manager()
      .query("SELECT pg_advisory_xact_lock(hashtextextended('triggers:' || $1 || ':' || $2, 0))", [
        workspaceId,
        agentSId,
      ]);
  }

  async update(trigger: Trigger, changes: TriggerChanges): Promise<Trigger> {
    const { spec, ...rest } = changes;
    await this.triggers.update(
      { id: trigger.id, workspaceId: trigger.workspaceId },
      { ...rest, ...(spec ? specColumns(spec) : {}), updatedAt: new Date() },
    );
    return { ...trigger, ...changes };
  }

  async deleteMany(workspaceId: number, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .manager()
      .query('DELETE FROM triggers WHERE workspace_id = $1 AND id = ANY($2)', [workspaceId, ids]);
  }

  async disableForAgent(workspaceId: number, agentSId: string): Promise<number> {
    const [, affected] = await this.db
      .manager()
      .query<[unknown[], number]>(
        "UPDATE triggers SET status = 'disabled', next_fire_at = NULL, updated_at = now() WHERE workspace_id = $1 AND agent_s_id = $2 AND status = 'enabled'",
        [workspaceId, agentSId],
      );
    return affected;
  }

  async claimDue(now: Date, limit: number): Promise<Trigger[]> {
    const found = await this.triggers
      .createQueryBuilder('t')
      .where("t.status = 'enabled' AND t.kind = 'schedule' AND t.next_fire_at <= :now", { now })
      .orderBy('t.next_fire_at', 'ASC')
      .addOrderBy('t.id', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
    return found.map(toTrigger);
  }

  async claimIfDue(workspaceId: number, id: number, now: Date): Promise<Trigger | null> {
    const found = await this.triggers
      .createQueryBuilder('t')
      .where(
        "t.id = :id AND t.workspace_id = :workspaceId AND t.status = 'enabled' AND t.next_fire_at <= :now",
        { id, workspaceId, now },
      )
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getOne();
    return found && toTrigger(found);
  }

  async nextDueAt(): Promise<Date | null> {
    const rows = await this.db
      .manager()
      .query<{ due: Date | null }[]>(
        "SELECT min(next_fire_at) AS due FROM triggers WHERE status = 'enabled' AND kind = 'schedule'",
      );
    return rows[0]?.due ?? null;
  }

  async recordFiring(firing: NewFiring): Promise<number | null> {
    // ON CONFLICT rather than catching the violation: the firing's transaction stays usable.
    const rows = await this.db.manager().query<{ id: number }[]>(
      `INSERT INTO trigger_firings (workspace_id, trigger_id, due_at, status, conversation_id, error)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT ON CONSTRAINT "UQ_trigger_firings_due" DO NOTHING RETURNING id`,
      [
        firing.workspaceId,
        firing.triggerId,
        firing.dueAt,
        firing.status,
        firing.conversationId,
        firing.error,
      ],
    );
    return rows[0]?.id ?? null;
  }

  async recordFirings(firings: NewFiring[]): Promise<(number | null)[]> {
    if (firings.length === 0) return [];
    const rows = await this.db.manager().query<{ id: number; trigger_id: number; due_at: Date }[]>(
      `INSERT INTO trigger_firings (workspace_id, trigger_id, due_at, status, conversation_id, error)
       SELECT * FROM unnest($1::int[], $2::int[], $3::timestamptz[], $4::varchar[], $5::int[], $6::text[])
       ON CONFLICT ON CONSTRAINT "UQ_trigger_firings_due" DO NOTHING RETURNING id, trigger_id, due_at`,
      [
        firings.map((f) => f.workspaceId),
        firings.map((f) => f.triggerId),
        firings.map((f) => f.dueAt),
        firings.map((f) => f.status),
        firings.map((f) => f.conversationId),
        firings.map((f) => f.error),
      ],
    );
    const ids = new Map(rows.map((row) => [`${row.trigger_id}|${row.due_at.getTime()}`, row.id]));
    return firings.map((f) => ids.get(`${f.triggerId}|${f.dueAt.getTime()}`) ?? null);
  }

  async completeFirings(outcomes: FiringOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    await this.db.manager().query(
      `UPDATE trigger_firings f SET status = o.status, conversation_id = o.conversation_id, error = o.error
       FROM unnest($1::int[], $2::int[], $3::varchar[], $4::int[], $5::text[])
         AS o(workspace_id, id, status, conversation_id, error)
       WHERE f.workspace_id = o.workspace_id AND f.id = o.id`,
      [
        outcomes.map((o) => o.workspaceId),
        outcomes.map((o) => o.firingId),
        outcomes.map((o) => o.status),
        outcomes.map((o) => o.conversationId),
        outcomes.map((o) => o.error),
      ],
    );
  }

  async updateSchedules(changes: ScheduleChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.db.manager().query(
      `UPDATE triggers t SET status = c.status, next_fire_at = c.next_fire_at, updated_at = now()
       FROM unnest($1::int[], $2::int[], $3::varchar[], $4::timestamptz[])
         AS c(workspace_id, id, status, next_fire_at)
       WHERE t.workspace_id = c.workspace_id AND t.id = c.id`,
      [
        changes.map((c) => c.workspaceId),
        changes.map((c) => c.id),
        changes.map((c) => c.status),
        changes.map((c) => c.nextFireAt),
      ],
    );
  }

  async completeFiring(
    workspaceId: number,
    firingId: number,
    outcome: Pick<TriggerFiring, 'status' | 'conversationId' | 'error'>,
  ): Promise<void> {
    await this.firings.update({ workspaceId, id: firingId }, outcome);
  }

  async pageFirings(
    workspaceId: number,
    triggerId: number,
    limit: number,
    beforeId: number | null,
  ): Promise<TriggerFiring[]> {
    const rows = await this.firings.find({
      where: { workspaceId, triggerId, ...(beforeId === null ? {} : { id: LessThan(beforeId) }) },
      order: { id: 'DESC' },
      take: limit,
    });
    return rows.map(toFiring);
  }

  /** Webhook deliveries that opened a conversation count as firings, at the time they did. */
  async listFirings(workspaceId: number, triggerId: number, limit: number): Promise<TriggerFiring[]> {
    const rows = await this.db.manager().query<
      {
        id: number;
        due_at: Date;
        status: TriggerFiring['status'];
        conversation_id: number | null;
        error: string | null;
        created_at: Date;
      }[]
    >(
      `SELECT id, due_at, status, conversation_id, error, created_at FROM trigger_firings
       WHERE workspace_id = $1 AND trigger_id = $2
       UNION ALL
       SELECT id, created_at, 'succeeded', conversation_id, error, created_at FROM webhook_request_triggers
       WHERE workspace_id = $1 AND trigger_id = $2 AND status = 'workflow_start_succeeded'
       ORDER BY due_at DESC, id DESC LIMIT $3`,
      [workspaceId, triggerId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      workspaceId,
      triggerId,
      dueAt: row.due_at,
      status: row.status,
      conversationId: row.conversation_id,
      error: row.error,
      createdAt: row.created_at,
    }));
  }
}

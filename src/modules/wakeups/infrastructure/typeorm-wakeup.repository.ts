import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from 'src/platform/database/pg-errors';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import {
  NewWakeUp,
  WakeUpChanges,
  WakeUpRepository,
} from 'src/modules/wakeups/application/ports/wakeup.repository';
import type { WakeUp } from 'src/modules/wakeups/domain/wakeup';
import { WakeUpEntity } from 'src/modules/wakeups/infrastructure/wakeups.entities';

const toWakeUp = (e: WakeUpEntity): WakeUp => ({
  id: e.id,
  sId: e.sId,
  workspaceId: e.workspaceId,
  conversationId: e.conversationId,
  ownerId: e.ownerId,
  agentSId: e.agentSId,
  schedule:
    e.scheduleType === 'one_shot'
      ? { type: 'one_shot', fireAt: e.fireAt ?? e.createdAt }
      : { type: 'cron', cron: e.cron ?? '', timezone: e.timezone ?? 'UTC' },
  reason: e.reason,
  status: e.status,
  fireCount: e.fireCount,
  maxFires: e.maxFires,
  nextFireAt: e.nextFireAt,
  attempts: e.attempts,
  createdAt: e.createdAt,
});

@Injectable()
export class TypeormWakeUpRepository extends WakeUpRepository {
  constructor(private readonly db: TypeormUnitOfWork) {
    super();
  }

  private get wakeUps() {
    return this.db.repository(WakeUpEntity);
  }

  async create(wakeUp: NewWakeUp): Promise<WakeUp | null> {
    const { schedule, ...rest } = wakeUp;
    const entity = this.wakeUps.create({
      ...rest,
      scheduleType: schedule.type,
      fireAt: schedule.type === 'one_shot' ? schedule.fireAt : null,
      cron: schedule.type === 'cron' ? schedule.cron : null,
      timezone: schedule.type === 'cron' ? schedule.timezone : null,
    });
    try {
      return toWakeUp(await this.wakeUps.save(entity));
    } catch (error) {
      if (isUniqueViolation(error, 'IDX_wakeups_one_scheduled')) return null;
      throw error;
    }
  }

  async listInConversation(workspaceId: number, conversationId: number): Promise<WakeUp[]> {
    const rows = await this.wakeUps.find({ where: { workspaceId, conversationId }, order: { id: 'ASC' } });
    return rows.map(toWakeUp);
  }

  async find(workspaceId: number, conversationId: number, sId: string): Promise<WakeUp | null> {
    const found = await this.wakeUps.findOneBy({ workspaceId, conversationId, sId });
    return found && toWakeUp(found);
  }

  async cancel(workspaceId: number, id: number): Promise<{ wakeUp: WakeUp; changed: boolean }> {
    const [, affected] = await this.db
      .manager()
      .query<[unknown[], number]>(
        "UPDATE wakeups SET status = 'cancelled', next_fire_at = NULL, updated_at = now() WHERE id = $1 AND workspace_id = $2 AND status = 'scheduled'",
        [id, workspaceId],
      );
    return {
      wakeUp: toWakeUp(await this.wakeUps.findOneByOrFail({ workspaceId, id })),
      changed: affected === 1,
    };
  }

  async cancelScheduledOf(
    workspaceId: number,
    ownerId: number,
  ): Promise<{ wakeUp: WakeUp; conversationSId: string }[]> {
    const [cancelled] = await this.db
      .manager()
      .query<[{ id: number }[], number]>(
        "UPDATE wakeups SET status = 'cancelled', next_fire_at = NULL, updated_at = now() WHERE workspace_id = $1 AND owner_id = $2 AND status = 'scheduled' RETURNING id",
        [workspaceId, ownerId],
      );
    if (cancelled.length === 0) return [];
    // The conversations' sIds name them in the announcements (a read of another context's table, through its entity's foreign key).
    const rows = await this.wakeUps
      .createQueryBuilder('w')
      .innerJoinAndSelect('w.conversation', 'c')
      .where('w.workspace_id = :workspaceId AND w.id IN (:...ids)', {
        workspaceId,
        ids: cancelled.map((row) => row.id),
      })
      .orderBy('w.id', 'ASC')
      .getMany();
    return rows.map((row) => ({ wakeUp: toWakeUp(row), conversationSId: row.conversation!.sId }));
  }

  async cancelScheduledIn(workspaceId: number, conversationId: number): Promise<void> {
    await this.db
      .manager()
      .query(
        "UPDATE wakeups SET status = 'cancelled', next_fire_at = NULL, updated_at = now() WHERE workspace_id = $1 AND conversation_id = $2 AND status = 'scheduled'",
        [workspaceId, conversationId],
      );
  }

  async ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null> {
    const found = await this.wakeUps.findOne({
      select: { ownerId: true },
      where: { workspaceId, conversationId, status: 'scheduled' },
    });
    return found?.ownerId ?? null;
  }

  async claimDue(now: Date, limit: number): Promise<WakeUp[]> {
    const found = await this.wakeUps
      .createQueryBuilder('w')
      .where("w.status = 'scheduled' AND w.next_fire_at <= :now", { now })
      .orderBy('w.next_fire_at', 'ASC')
      .addOrderBy('w.id', 'ASC')
      .limit(limit)
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getMany();
    return found.map(toWakeUp);
  }

  async claimIfDue(workspaceId: number, id: number, now: Date): Promise<WakeUp | null> {
    const found = await this.wakeUps
      .createQueryBuilder('w')
      .where(
        "w.id = :id AND w.workspace_id = :workspaceId AND w.status = 'scheduled' AND w.next_fire_at <= :now",
        {
          id,
          workspaceId,
          now,
        },
      )
      .setLock('pessimistic_write')
      .setOnLocked('skip_locked')
      .getOne();
    return found && toWakeUp(found);
  }

  async update(wakeUp: WakeUp, changes: WakeUpChanges): Promise<WakeUp> {
    await this.wakeUps.update(
      { id: wakeUp.id, workspaceId: wakeUp.workspaceId },
      { ...changes, updatedAt: new Date() },
    );
    return { ...wakeUp, ...changes };
  }

  async updateMany(updates: { wakeUp: WakeUp; changes: WakeUpChanges }[]): Promise<WakeUp[]> {
    if (updates.length === 0) return [];
    const after = updates.map(({ wakeUp, changes }) => ({ ...wakeUp, ...changes }));
    const rows = after.map((wakeUp) => ({
      id: wakeUp.id,
      workspace_id: wakeUp.workspaceId,
      status: wakeUp.status,
      fire_count: wakeUp.fireCount,
      next_fire_at: wakeUp.nextFireAt?.toISOString() ?? null,
      attempts: wakeUp.attempts,
    }));
    await this.db.manager().query(
      `UPDATE wakeups w
          SET status = u.status, fire_count = u.fire_count, next_fire_at = u.next_fire_at,
              attempts = u.attempts, updated_at = now()
         FROM jsonb_to_recordset($1::jsonb)
              AS u(id int, workspace_id int, status text, fire_count int, next_fire_at timestamptz, attempts int)
        WHERE w.id = u.id AND w.workspace_id = u.workspace_id`,
      [JSON.stringify(rows)],
    );
    return after;
  }

  async nextDueAt(): Promise<Date | null> {
    const rows = await this.db
      .manager()
      .query<{ due: Date | null }[]>(
        "SELECT min(next_fire_at) AS due FROM wakeups WHERE status = 'scheduled'",
      );
    return rows[0]?.due ?? null;
  }
}

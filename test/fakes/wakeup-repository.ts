import type { Clock } from 'src/platform/clock/clock';
import {
  NewWakeUp,
  WakeUpChanges,
  WakeUpRepository,
} from 'src/modules/wakeups/application/ports/wakeup.repository';
import type { WakeUp } from 'src/modules/wakeups/domain/wakeup';
import { InMemoryTable } from 'test/fakes/in-memory-table';
import type { InMemoryUnitOfWork } from 'test/fakes/unit-of-work';

export interface WakeUpRepositoryOptions {
  unitOfWork?: InMemoryUnitOfWork;
  clock?: Clock;
  /** The sId of a conversation (the table's join); a wake-up whose conversation is unknown is left out. */
  conversationSIdOf?: (workspaceId: number, conversationId: number) => string | undefined;
}

/**
 * The wake-ups table in memory, with the database's rules: one scheduled wake-up per
 * conversation, every read scoped by workspace (but the scheduler's, which spans them), due
 * wake-ups claimed earliest first, skipping those another transaction holds (`heldElsewhere`).
 */
export class InMemoryWakeUpRepository extends WakeUpRepository {
  private readonly rows: InMemoryTable<WakeUp>;
  /** Ids of wake-ups another transaction has locked: claims skip them, as FOR UPDATE SKIP LOCKED does. */
  readonly heldElsewhere = new Set<number>();

  constructor(private readonly options: WakeUpRepositoryOptions = {}) {
    super();
    this.rows = new InMemoryTable(options.unitOfWork);
  }

  /** Every stored wake-up, in creation order: what the table holds. */
  all(): WakeUp[] {
    return this.rows.select();
  }

  async create(wakeUp: NewWakeUp): Promise<WakeUp | null> {
    const scheduledInConversation = (row: WakeUp) =>
      row.conversationId === wakeUp.conversationId && row.status === 'scheduled';
    const id = this.rows.nextId();
    if (wakeUp.status === 'scheduled' && this.rows.select(scheduledInConversation).length > 0) return null;
    return this.rows.insert({ ...wakeUp, id, createdAt: this.options.clock?.now() ?? new Date() });
  }

  async listInConversation(workspaceId: number, conversationId: number): Promise<WakeUp[]> {
    return this.rows.select(
      (row) => row.workspaceId === workspaceId && row.conversationId === conversationId,
    );
  }

  async find(workspaceId: number, conversationId: number, sId: string): Promise<WakeUp | null> {
    const [found] = this.rows.select(
      (row) => row.workspaceId === workspaceId && row.conversationId === conversationId && row.sId === sId,
    );
    return found ?? null;
  }

  async cancel(workspaceId: number, id: number): Promise<{ wakeUp: WakeUp; changed: boolean }> {
    const changed = this.rows.update(
      (row) => row.id === id && row.workspaceId === workspaceId && row.status === 'scheduled',
      cancelRow,
    );
    const [wakeUp] = this.rows.select((row) => row.id === id && row.workspaceId === workspaceId);
    if (!wakeUp) throw new Error(`No wake-up ${id} in workspace ${workspaceId}.`);
    return { wakeUp, changed: changed.length === 1 };
  }

  async cancelScheduledOf(
    workspaceId: number,
    ownerId: number,
  ): Promise<{ wakeUp: WakeUp; conversationSId: string }[]> {
    const cancelled = this.rows.update(
      (row) => row.workspaceId === workspaceId && row.ownerId === ownerId && row.status === 'scheduled',
      cancelRow,
    );
    return cancelled.flatMap((wakeUp) => {
      const conversationSId = this.options.conversationSIdOf?.(workspaceId, wakeUp.conversationId);
      return conversationSId === undefined ? [] : [{ wakeUp, conversationSId }];
    });
  }

  async cancelScheduledIn(workspaceId: number, conversationId: number): Promise<void> {
    this.rows.update(
      (row) =>
        row.workspaceId === workspaceId &&
        row.conversationId === conversationId &&
        row.status === 'scheduled',
      cancelRow,
    );
  }

  async ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null> {
    const [found] = this.rows.select(
      (row) =>
        row.workspaceId === workspaceId &&
        row.conversationId === conversationId &&
        row.status === 'scheduled',
    );
    return found?.ownerId ?? null;
  }

  async claimDue(now: Date, limit: number): Promise<WakeUp[]> {
    return this.rows
      .select((row) => isDue(row, now) && !this.heldElsewhere.has(row.id))
      .sort((a, b) => a.nextFireAt!.getTime() - b.nextFireAt!.getTime() || a.id - b.id)
      .slice(0, limit);
  }

  async claimIfDue(workspaceId: number, id: number, now: Date): Promise<WakeUp | null> {
    const [found] = this.rows.select(
      (row) =>
        row.id === id &&
        row.workspaceId === workspaceId &&
        isDue(row, now) &&
        !this.heldElsewhere.has(row.id),
    );
    return found ?? null;
  }

  async update(wakeUp: WakeUp, changes: WakeUpChanges): Promise<WakeUp> {
    this.rows.update(
      (row) => row.id === wakeUp.id && row.workspaceId === wakeUp.workspaceId,
      (row) => Object.assign(row, changes),
    );
    return { ...wakeUp, ...changes };
  }

  async updateMany(updates: { wakeUp: WakeUp; changes: WakeUpChanges }[]): Promise<WakeUp[]> {
    const updated: WakeUp[] = [];
    for (const { wakeUp, changes } of updates) updated.push(await this.update(wakeUp, changes));
    return updated;
  }

  async nextDueAt(): Promise<Date | null> {
    const times = this.rows
      .select((row) => row.status === 'scheduled' && row.nextFireAt !== null)
      .map((row) => row.nextFireAt!.getTime());
    return times.length === 0 ? null : new Date(Math.min(...times));
  }
}

function cancelRow(row: WakeUp): void {
  row.status = 'cancelled';
  row.nextFireAt = null;
}

function isDue(row: WakeUp, now: Date): boolean {
  return row.status === 'scheduled' && row.nextFireAt !== null && row.nextFireAt <= now;
}

import type { WakeUp } from 'src/modules/wakeups/domain/wakeup';

export type NewWakeUp = Omit<WakeUp, 'id' | 'createdAt'>;

export type WakeUpChanges = Partial<Pick<WakeUp, 'status' | 'fireCount' | 'nextFireAt' | 'attempts'>>;

/** Port: the wake-ups table, which is also the scheduler's queue. Every query takes the workspace id. */
export abstract class WakeUpRepository {
  /** Null when the conversation already has a scheduled wake-up. */
  abstract create(wakeUp: NewWakeUp): Promise<WakeUp | null>;
  abstract listInConversation(workspaceId: number, conversationId: number): Promise<WakeUp[]>;
  abstract find(workspaceId: number, conversationId: number, sId: string): Promise<WakeUp | null>;
  /** Cancels if still scheduled (waiting for a firing that holds the row); returns the row as it ends up. */
  abstract cancel(workspaceId: number, id: number): Promise<{ wakeUp: WakeUp; changed: boolean }>;
  /** Cancels every scheduled wake-up of an owner (waiting for firings that hold them); returns those it cancelled. */
  abstract cancelScheduledOf(
    workspaceId: number,
    ownerId: number,
  ): Promise<{ wakeUp: WakeUp; conversationSId: string }[]>;
  /** Cancels the conversation's scheduled wake-up, if any (waiting for a firing that holds it). */
  abstract cancelScheduledIn(workspaceId: number, conversationId: number): Promise<void>;
  /** The owner of the conversation's scheduled wake-up, or null when none is scheduled. */
  abstract ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null>;
  /** Locks up to `limit` due wake-ups, earliest first, for the current transaction, skipping those other transactions hold. */
  abstract claimDue(now: Date, limit: number): Promise<WakeUp[]>;
  /** Locks this wake-up if it is still scheduled and due. */
  abstract claimIfDue(workspaceId: number, id: number, now: Date): Promise<WakeUp | null>;
  abstract update(wakeUp: WakeUp, changes: WakeUpChanges): Promise<WakeUp>;
  /** `update` of several wake-ups in one statement; returns them changed, in the order given. */
  abstract updateMany(updates: { wakeUp: WakeUp; changes: WakeUpChanges }[]): Promise<WakeUp[]>;
  /** The earliest due time of any scheduled wake-up, for the scheduler's timer. */
  abstract nextDueAt(): Promise<Date | null>;
}

import type { Trigger, TriggerStatus, TriggerSpec } from 'src/modules/triggers/domain/trigger';

export type NewTrigger = Omit<Trigger, 'id' | 'createdAt'>;

export type TriggerChanges = Partial<
  Pick<Trigger, 'name' | 'customPrompt' | 'status' | 'spec' | 'nextFireAt' | 'editorId'>
>;

export type FiringStatus = 'succeeded' | 'failed';

/** One due time of a schedule, or one accepted webhook delivery, and what came of it. */
export interface TriggerFiring {
  id: number;
  workspaceId: number;
  triggerId: number;
  dueAt: Date;
  status: FiringStatus;
  conversationId: number | null;
  error: string | null;
  createdAt: Date;
}

export type NewFiring = Omit<TriggerFiring, 'id' | 'createdAt'>;

/** What came of a recorded firing. */
export type FiringOutcome = Pick<TriggerFiring, 'workspaceId' | 'status' | 'conversationId' | 'error'> & {
  firingId: number;
};

/** A schedule's state after a firing: its next due time, or disabled. */
export interface ScheduleChange {
  workspaceId: number;
  id: number;
  status: TriggerStatus;
  nextFireAt: Date | null;
}

export abstract class TriggerRepository {
  abstract createMany(triggers: NewTrigger[]): Promise<Trigger[]>;
  abstract listForAgent(workspaceId: number, agentSId: string): Promise<Trigger[]>;
  /** Triggers agents created from this conversation, enabled or not. */
  abstract countFromConversation(workspaceId: number, conversationId: number): Promise<number>;
  abstract find(workspaceId: number, sId: string): Promise<Trigger | null>;
  /** Serialises the writes of one agent's triggers until the transaction ends (the per-agent limit). */
  abstract lockAgent(workspaceId: number, agentSId: string): Promise<void>;
  abstract update(trigger: Trigger, changes: TriggerChanges): Promise<Trigger>;
  abstract deleteMany(workspaceId: number, ids: number[]): Promise<void>;
  /** Disables every enabled trigger of the agent; returns how many. */
  abstract disableForAgent(workspaceId: number, agentSId: string): Promise<number>;
  /** Enabled schedules due at `now`, locked (FOR UPDATE SKIP LOCKED) for the current transaction. */
  abstract claimDue(now: Date, limit: number): Promise<Trigger[]>;
  /** This schedule, locked, when still enabled and due at `now`. */
  abstract claimIfDue(workspaceId: number, id: number, now: Date): Promise<Trigger | null>;
  abstract nextDueAt(): Promise<Date | null>;
  /** Records a firing; null when this trigger already has one at that due time. */
  abstract recordFiring(firing: NewFiring): Promise<number | null>;
  /** `recordFiring` of each, in one statement: their ids in order, null for a due time already recorded. */
  abstract recordFirings(firings: NewFiring[]): Promise<(number | null)[]>;
  abstract completeFiring(
    workspaceId: number,
    firingId: number,
    outcome: Pick<TriggerFiring, 'status' | 'conversationId' | 'error'>,
  ): Promise<void>;
  abstract completeFirings(outcomes: FiringOutcome[]): Promise<void>;
  abstract updateSchedules(changes: ScheduleChange[]): Promise<void>;
  /** A page of a trigger's firings, newest (highest id) first, with ids below `beforeId` when given. */
  abstract pageFirings(
    workspaceId: number,
    triggerId: number,
    limit: number,
    beforeId: number | null,
  ): Promise<TriggerFiring[]>;
  /** A trigger's firings, newest first. */
  abstract listFirings(workspaceId: number, triggerId: number, limit: number): Promise<TriggerFiring[]>;
}

export type { Trigger, TriggerStatus, TriggerSpec };

import { committedEvent } from 'src/platform/events/in-process-events';

/** A schedule was created or re-planned: the scheduler of this process must wake up by `dueAt`. */
export interface TriggerScheduled {
  dueAt: Date;
}
export const TriggerScheduled = committedEvent<TriggerScheduled>('trigger.scheduled');

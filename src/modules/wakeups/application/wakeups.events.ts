import { committedEvent } from 'src/platform/events/in-process-events';

/** A wake-up was scheduled: the scheduler of this process must wake up by `dueAt`. */
export interface WakeUpScheduled {
  dueAt: Date;
}
export const WakeUpScheduled = committedEvent<WakeUpScheduled>('wake_up.scheduled');

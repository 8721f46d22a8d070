import { committedEvent } from 'src/platform/events/in-process-events';

/** A tool call waiting for approval was answered: the run waiting for it (in this process) goes on at once. */
export interface ActionAnswered {
  /** The action's row id. */
  actionId: number;
}
export const ActionAnswered = committedEvent<ActionAnswered>('runtime.action_answered');

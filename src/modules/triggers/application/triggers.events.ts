import { committedEvent } from 'src/platform/events/in-process-events';

/** A schedule was created or re-planned: the scheduler of this process must wake up by `dueAt`. */
export interface TriggerScheduled {
  dueAt: Date;
}
export const TriggerScheduled = committedEvent<TriggerScheduled>('trigger.scheduled');

/** A signed webhook delivery was stored: the deliveries' worker of this process processes it now. */
export type WebhookReceived = Record<string, never>;
export const WebhookReceived = committedEvent<WebhookReceived>('trigger.webhook_received');

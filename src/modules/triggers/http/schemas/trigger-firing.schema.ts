import type * as views from 'src/modules/triggers/application/views/trigger.view';

export class TriggerFiring implements views.TriggerFiringView {
  id!: number;
  /** The due time (schedules) or the delivery time (webhooks) it fired for, ms since the epoch */
  firedFor!: number;
  status!: 'succeeded' | 'failed';
  /**
   * Why it failed; null when it succeeded
   * @example "The trigger's editor can no longer read agent Ag4tB7nM1q."
   */
  error!: string | null;
  /** sId of the conversation it opened, when the key reads conversations and the caller can read it */
  conversationId!: string | null;
  /** When it was recorded, ms since the epoch */
  created!: number;
}

export class TriggerFiringsResponse implements views.TriggerFiringsPage {
  /** Newest first */
  firings!: TriggerFiring[];
  /** Give it as `cursor` for the next (older) page; null on the last page */
  nextCursor!: string | null;
}

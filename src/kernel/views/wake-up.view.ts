import { ApiSchema } from '@nestjs/swagger';
import type { WakeUpStatus } from 'src/kernel/wake-up-status';

/** `one_shot` has `fireAt`; `cron` has `cron` and `timezone`. */
export class ScheduleConfigView {
  type!: 'one_shot' | 'cron';
  /** one_shot: ms since the epoch */
  fireAt?: number;
  cron?: string;
  timezone?: string;
}

/**
 * A wake-up as the API shows it: wakeups renders it in its answers, and conversations carries it in
 * `wake_up_updated` events (wakeups depends on conversations, so the shape is shared here).
 */
@ApiSchema({ name: 'WakeUp' })
export class WakeUpView {
  id!: number;
  sId!: string;
  createdAt!: number;
  /** sId of the agent */
  agentConfigurationId!: string;
  scheduleConfig!: ScheduleConfigView;
  reason!: string;
  status!: WakeUpStatus;
  fireCount!: number;
  maxFires!: number;
  /** sId of the conversation */
  conversationId!: string;
  /** sId of the member who scheduled it */
  owner!: string;
}

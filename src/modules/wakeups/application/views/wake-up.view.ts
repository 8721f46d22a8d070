import type { WakeUpStatus } from 'src/modules/wakeups/domain/wakeup';

/** `one_shot` has `fireAt`; `cron` has `cron` and `timezone`. */
export interface ScheduleConfigView {
  type: 'one_shot' | 'cron';
  fireAt?: number;
  cron?: string;
  timezone?: string;
}

/** A wake-up as the API shows it, in answers and in `wake_up_updated` events. */
export interface WakeUpView {
  id: number;
  sId: string;
  createdAt: number;
  agentConfigurationId: string;
  scheduleConfig: ScheduleConfigView;
  reason: string;
  status: WakeUpStatus;
  fireCount: number;
  maxFires: number;
  conversationId: string;
  owner: string;
}

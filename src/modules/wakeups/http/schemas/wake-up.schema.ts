import type * as views from 'src/modules/wakeups/application/views/wake-up.view';
import type { WakeUpStatus } from 'src/modules/wakeups/domain/wakeup';

export class ScheduleConfigView implements views.ScheduleConfigView {
  type!: 'one_shot' | 'cron';
  /** one_shot: ms since the epoch */
  fireAt?: number;
  cron?: string;
  timezone?: string;
}

export class WakeUp implements views.WakeUpView {
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

export class WakeUpResponse {
  wakeUp!: WakeUp;
}

export class WakeUpsResponse {
  wakeUps!: WakeUp[];
}

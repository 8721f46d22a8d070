import { ApiSchema } from '@nestjs/swagger';
import type { WakeUp, WakeUpStatus } from 'src/modules/wakeups/domain/wakeup';

/** `one_shot` has `fireAt`; `cron` has `cron` and `timezone`. */
export class ScheduleConfigView {
  type!: 'one_shot' | 'cron';
  /** one_shot: ms since the epoch */
  fireAt?: number;
  cron?: string;
  timezone?: string;
}

/** A wake-up as the API shows it, in answers and in `wake_up_updated` events. */
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

export class WakeUpResponse {
  wakeUp!: WakeUpView;
}

export class WakeUpsResponse {
  wakeUps!: WakeUpView[];
}

/** Shared by the answers and the event payload. */
export function renderWakeUp({
  wakeUp,
  conversationSId,
  ownerSId,
}: {
  wakeUp: WakeUp;
  conversationSId: string;
  ownerSId: string;
}): WakeUpView {
  return {
    id: wakeUp.id,
    sId: wakeUp.sId,
    createdAt: wakeUp.createdAt.getTime(),
    agentConfigurationId: wakeUp.agentSId,
    scheduleConfig:
      wakeUp.schedule.type === 'one_shot'
        ? { type: 'one_shot' as const, fireAt: wakeUp.schedule.fireAt.getTime() }
        : { type: 'cron' as const, cron: wakeUp.schedule.cron, timezone: wakeUp.schedule.timezone },
    reason: wakeUp.reason,
    status: wakeUp.status,
    fireCount: wakeUp.fireCount,
    maxFires: wakeUp.maxFires,
    conversationId: conversationSId,
    owner: ownerSId,
  };
}

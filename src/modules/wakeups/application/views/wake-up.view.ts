import { WakeUpView } from 'src/kernel/views/wake-up.view';
import type { WakeUp } from 'src/modules/wakeups/domain/wakeup';

export { ScheduleConfigView, WakeUpView } from 'src/kernel/views/wake-up.view';

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

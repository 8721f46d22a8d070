import { WakeUpDetails, presentWakeUpEvent } from 'src/modules/wakeups/application/wakeups.service';
import type { WakeUpView } from 'src/modules/wakeups/application/views/wake-up.view';

export const presentWakeUp = (details: WakeUpDetails): WakeUpView =>
  presentWakeUpEvent(details.wakeUp, details.conversationSId, details.ownerSId);

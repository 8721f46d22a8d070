import { Injectable } from '@nestjs/common';
import { ScheduledWakeUps } from 'src/modules/conversations/conversations.api';
import { WakeUpRepository } from 'src/modules/wakeups/application/ports/wakeup.repository';

/** Conversations' ScheduledWakeUps port: who owns the wake-up a conversation waits for. */
@Injectable()
export class ScheduledWakeUpsReader extends ScheduledWakeUps {
  constructor(private readonly wakeUps: WakeUpRepository) {
    super();
  }

  ownerOfScheduled(workspaceId: number, conversationId: number): Promise<number | null> {
    return this.wakeUps.ownerOfScheduled(workspaceId, conversationId);
  }
}

import { Injectable } from '@nestjs/common';
import { OnEventInTransaction } from 'src/platform/events/in-process-events';
import { AgentMessageFinished } from 'src/modules/conversations/application/conversations.events';
import { AgentActionsService } from 'src/modules/runtime/application/agent-actions.service';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';

/** What a call still waiting for approval says once its message ends without it. */
const WAITING_DECLINED = {
  cancelled: 'The message was cancelled before anyone answered.',
  failed: 'The agent stopped before anyone answered.',
};

/**
 * A run ends with its agent message, whoever ended it (its runner, a member who cancelled, the
 * sweep of stale runs): in the transaction that records the message's outcome, the run takes the
 * same, and its calls still waiting for approval are declined (nobody needs to answer them now).
 */
@Injectable()
export class RunOutcomesService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly actions: AgentActionsService,
  ) {}

  @OnEventInTransaction(AgentMessageFinished)
  async endRun({ workspaceId, conversationId, message, status }: AgentMessageFinished): Promise<void> {
    await this.runs.finish(workspaceId, message.id, status);
    if (status === 'succeeded') return;
    await this.actions.declineWaiting(
      { conversation: { id: conversationId, workspaceId }, message },
      WAITING_DECLINED[status],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { OnEventInTransaction } from 'src/platform/events/in-process-events';
import { OperatorLog } from 'src/platform/logging/operator-log';
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
 * Once that commits, what its calls held of the month's budget is given back (the recovery sweep
 * gives it back if this process stops first).
 */
@Injectable()
export class RunOutcomesService {
  constructor(
    private readonly runs: AgentRunRepository,
    private readonly actions: AgentActionsService,
    private readonly db: UnitOfWork,
    private readonly log: OperatorLog,
  ) {}

  @OnEventInTransaction(AgentMessageFinished)
  async endRun({ workspaceId, conversationId, message, status }: AgentMessageFinished): Promise<void> {
    const holding = await this.runs.finish(workspaceId, message.id, status);
    // Most runs hold nothing (no budget applies): no statement for them.
    if (holding)
      this.db.afterCommit(() => {
        this.runs
          .releaseHolds(workspaceId, message.id)
          .catch((error: unknown) =>
            this.log.warn(
              RunOutcomesService.name,
              { err: error },
              'Could not give back the tokens of an ended run',
            ),
          );
      });
    if (status === 'succeeded') return;
    await this.actions.declineWaiting(
      { conversation: { id: conversationId, workspaceId }, message },
      WAITING_DECLINED[status],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { AgentsService } from 'src/modules/agents/agents.api';
import type { MessagePosted } from 'src/modules/conversations/application/conversations.events';
import { WorkspacesService } from 'src/modules/identity/identity.api';
import { AgentRunsService } from 'src/modules/runtime/application/agent-runs.service';
import { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
import { RunRequest, RunRequestQueue } from 'src/modules/runtime/application/ports/run-requests';
import type { Run } from 'src/modules/runtime/application/run';

/** Failed starts of a request before it is given up. */
const MAX_START_ATTEMPTS = 5;

/** A request taken from the queue: its runs, started and recorded as the taker's. */
export interface StartedRequest {
  requestId: number;
  workspaceId: number;
  runs: Run[];
}

/**
 * The queue of answers posted messages ask for: written with the message, taken in turn by any
 * process with a free slot. The process that posted a message usually takes it, and knows the post
 * in full; any other reads it back from the database, for the member as they are now.
 */
@Injectable()
export class RunRequestsService {
  constructor(
    private readonly queue: RunRequestQueue,
    private readonly runs: AgentRunsService,
    private readonly sink: AnswerSink,
    private readonly workspaces: WorkspacesService,
    private readonly agents: AgentsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly log: OperatorLog,
  ) {}

  /** Queues, in the post's transaction, what the posted message asks for; null when it asks for no run. */
  async enqueue(posted: MessagePosted): Promise<number | null> {
    if (posted.newAgentMentions.length === 0 && !posted.rerun?.length) return null;
    const { caller, conversation, message } = posted;
    return this.queue.enqueue({
      workspaceId: caller.workspaceId,
      conversationId: conversation.id,
      messageId: message.id,
      userId: caller.userId,
      keyId: caller.keyId,
      scopes: [...caller.scopes],
      newAgentMentions: posted.newAgentMentions,
      rerunMessageIds: (posted.rerun ?? []).map((rerun) => rerun.id),
    });
  }

  /**
   * Takes the next request in turn (see `RunRequestQueue.claimNext`) and starts its runs as
   * `runnerId`'s, in one transaction: `known` gives the posts this process queued. A request whose
   * start fails stays queued, put off, and is given up after a few attempts.
   */
  async startNext(
    runnerId: string,
    skippedWorkspaceIds: readonly number[],
    known: (requestId: number) => MessagePosted | undefined,
  ): Promise<StartedRequest | null> {
    let claimed: RunRequest | null = null;
    try {
      return await this.unitOfWork.run(async () => {
        claimed = await this.queue.claimNext(skippedWorkspaceIds);
        if (!claimed) return null;
        const posted = known(claimed.id) ?? (await this.readBack(claimed));
        const runs = posted ? await this.runs.start(posted, runnerId) : [];
        return { requestId: claimed.id, workspaceId: claimed.workspaceId, runs };
      });
    } catch (error) {
      const failed = claimed as RunRequest | null;
      if (failed) {
        const givenUp = await this.queue.putOff(failed.id, MAX_START_ATTEMPTS).catch(() => false);
        this.log.error(
          RunRequestsService.name,
          { err: error, requestId: failed.id, messageId: failed.messageId, givenUp },
          givenUp
            ? `Gave up starting the runs of a posted message after ${MAX_START_ATTEMPTS} attempts`
            : 'Could not start the runs of a posted message; it will be tried again',
        );
      }
      throw error;
    }
  }

  /** The post a request stands for, read back; null (and logged) when its member or message is gone. */
  private async readBack(request: RunRequest): Promise<MessagePosted | null> {
    const [member] = await this.workspaces.callersFor([
      { workspaceId: request.workspaceId, userId: request.userId, keyId: request.keyId },
    ]);
    const posted =
      member &&
      (await this.sink.postedMessage(
        request.workspaceId,
        request.conversationId,
        request.messageId,
        request.rerunMessageIds,
      ));
    if (!member || !posted) {
      this.log.warn(
        RunRequestsService.name,
        { requestId: request.id, messageId: request.messageId },
        'Dropped the runs of a posted message: its author left the workspace or the message is gone',
      );
      return null;
    }
    // The member's rights as they are now, through no more scopes than the key that posted had.
    const caller = new Caller(
      member.workspaceId,
      member.workspaceSId,
      member.workspaceName,
      member.userId,
      member.userSId,
      member.role,
      member.scopes.filter((scope) => request.scopes.includes(scope)),
      request.keyId,
    );
    const agentSIds = [
      ...new Set([...request.newAgentMentions, ...posted.rerun.map((message) => message.agentSId)]),
    ];
    const described = await this.agents.describe(caller, agentSIds);
    return {
      caller,
      conversation: posted.conversation,
      message: posted.message,
      newAgentMentions: request.newAgentMentions,
      agents: described.filter((details) => details.canRead).map((details) => details.agent),
      rerun: posted.rerun,
    };
  }
}

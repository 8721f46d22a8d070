import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { InProcessEvents, OnEventInTransaction } from 'src/platform/events/in-process-events';
import { ConflictError, DomainError, ForbiddenError } from 'src/platform/errors/domain-error';
import { AgentsService } from 'src/modules/agents/agents.api';
import { MemberRemoved } from 'src/modules/identity/identity.api';
import { AgentActionsService } from 'src/modules/runtime/application/agent-actions.service';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { AnswerSink } from 'src/modules/runtime/application/ports/answer-sink';
import { ConversationAccess } from 'src/modules/runtime/application/ports/conversation-access';
import { ActionAnswered } from 'src/modules/runtime/application/runtime.events';
import type { RunAction } from 'src/modules/runtime/domain/run-action';

export const DECLINED_TEXT = 'The user declined to run this tool. Do not call it again for this request.';

export const APPROVER_LEFT_TEXT =
  'The member this agent acts for left the workspace before anyone answered, so this tool call did not run.';

/** A member's answer to a tool call that waits for approval. */
export type ApprovalAnswer = 'approved' | 'rejected';

/** A call waiting for approval, as `actions/blocked` lists it. */
export interface BlockedToolCall {
  conversationId: string;
  messageId: string;
  configurationId: string;
  actionId: string;
  /** Why it waits: for its approver's answer. */
  status: 'blocked_validation_required';
  functionCallName: string;
  inputs: Record<string, unknown>;
  metadata: { toolName: string; mcpServerName: string; agentName: string };
  createdAt: number;
  expiresAt: number | null;
}

/**
 * The answers to tool calls that wait for approval, and what waits: conversations' routes serve
 * them through their `ActionApprovalsService` port, which this answers (src/composition shows the
 * answered call as conversations' views do).
 */
@Injectable()
export class ToolCallApprovalsService {
  constructor(
    private readonly access: ConversationAccess,
    private readonly sink: AnswerSink,
    private readonly agents: AgentsService,
    private readonly runs: AgentRunRepository,
    private readonly actions: AgentActionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly inProcessEvents: InProcessEvents,
  ) {}

  /**
   * Answers a call that waits for approval: approved, it moves to `running` (its run executes it);
   * rejected, it is `denied` at once. The run's member or an admin may answer; an answer to a call
   * that no longer waits is a conflict. Answers the call as it is now.
   */
  async validate(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
    actionSId: string,
    answer: ApprovalAnswer,
  ): Promise<RunAction> {
    const { conversation, message } = await this.access.message(caller, conversationSId, messageSId);
    const action = await this.runs.findActionBySId(caller.workspaceId, actionSId);
    if (message.type !== 'agent_message' || !action || action.messageId !== message.id)
      throw new DomainError('not_found', `Action ${actionSId} not found on message ${messageSId}.`);
    if (action.approverId !== caller.userId && !caller.isAdmin)
      throw new ForbiddenError('Only the member the agent acts for, or an admin, may answer this tool call.');
    const moved = await this.unitOfWork.run(async () => {
      const done =
        answer === 'approved'
          ? await this.actions.approve(action)
          : await this.actions.settle({ conversation, message }, action, 'blocked_validation_required', {
              status: 'denied',
              output: [{ type: 'text', text: DECLINED_TEXT }],
              executionDurationMs: 0,
            });
      if (done) this.inProcessEvents.emitAfterCommit(ActionAnswered, { actionId: action.id });
      return done;
    });
    const now = await this.actions.current(action);
    if (!moved) {
      throw new ConflictError(
        `This tool call is not waiting for approval (it is ${now?.status ?? 'gone'}); it cannot be answered again.`,
      );
    }
    return now ?? action;
  }

  /**
   * A member who leaves takes their waiting tool calls along: each is declined with the removal, so
   * a later approval finds nothing to run, and their runs go on as after a refusal.
   */
  @OnEventInTransaction(MemberRemoved)
  async declineForRemovedMember({ workspaceId, user }: MemberRemoved): Promise<void> {
    const waiting = await this.runs.listAwaitingApprover(workspaceId, user.id);
    const answers = await this.sink.findAnswers(workspaceId, [
      ...new Set(waiting.map((action) => action.messageId)),
    ]);
    for (const answer of answers) {
      const declined = await this.actions.declineWaiting(answer, APPROVER_LEFT_TEXT);
      for (const action of declined)
        this.inProcessEvents.emitAfterCommit(ActionAnswered, { actionId: action.id });
    }
  }

  /** The calls of a conversation that wait for approval, oldest first. */
  async blocked(caller: Caller, conversationSId: string): Promise<BlockedToolCall[]> {
    const conversation = await this.access.conversation(caller, conversationSId);
    const blocked = await this.runs.listBlocked(caller.workspaceId, conversation.id);
    if (blocked.length === 0) return [];
    const answers = await this.sink.findAnswers(caller.workspaceId, [
      ...new Set(blocked.map((action) => action.messageId)),
    ]);
    const agentSIds = [...new Set(answers.map(({ message }) => message.agentSId))];
    const agents = new Map(
      (await this.agents.describe(caller, agentSIds)).map(({ agent }) => [agent.sId, agent.name]),
    );
    const byId = new Map(answers.map(({ message }) => [message.id, message]));
    return blocked.flatMap((action: RunAction) => {
      const message = byId.get(action.messageId);
      if (!message) return [];
      return [
        {
          conversationId: conversation.sId,
          messageId: message.sId,
          configurationId: message.agentSId,
          actionId: action.sId,
          functionCallName: action.functionCallName,
          inputs: action.params,
          metadata: {
            toolName: action.toolName,
            mcpServerName: action.mcpServerName,
            agentName: agents.get(message.agentSId) ?? message.agentSId,
          },
          createdAt: action.createdAt.getTime(),
          expiresAt: action.approvalDeadline?.getTime() ?? null,
          status: 'blocked_validation_required',
        },
      ];
    });
  }
}

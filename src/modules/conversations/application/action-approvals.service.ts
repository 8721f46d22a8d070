import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { InProcessEvents, OnEventInTransaction } from 'src/platform/events/in-process-events';
import { ConflictError, DomainError, ForbiddenError } from 'src/platform/errors/domain-error';
import { ActionAnswered } from 'src/modules/conversations/application/conversations.events';
import { MemberRemoved } from 'src/modules/identity/application/identity.events';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { AgentActionsService } from 'src/modules/conversations/application/agent-actions.service';
import { renderAction } from 'src/modules/conversations/application/action-views';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import type { ActionView, BlockedActionView } from 'src/modules/conversations/application/views/action.view';

/** What `validate-action` takes. */
export type ApprovalAnswer = 'approved' | 'rejected';

export const DECLINED_TEXT = 'The user declined to run this tool. Do not call it again for this request.';

export const APPROVER_LEFT_TEXT =
  'The member this agent acts for left the workspace before anyone answered, so this tool call did not run.';

/** The answers to tool calls that wait for approval, and what waits. */
@Injectable()
export class ActionApprovalsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly messageRepository: MessageRepository,
    private readonly agents: AgentsService,
    private readonly actions: AgentActionsService,
    private readonly unitOfWork: UnitOfWork,
    private readonly inProcessEvents: InProcessEvents,
  ) {}

  /**
   * Answers a call that waits for approval: approved, it moves to `running` (its run executes it);
   * rejected, it is `denied` at once. The run's member or an admin may answer; an answer to a call
   * that no longer waits is a conflict.
   */
  async validate(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
    actionSId: string,
    answer: ApprovalAnswer,
  ): Promise<ActionView> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const message = await this.messages.findMessage(caller, conversation, messageSId);
    const action = await this.actions.findBySId(caller.workspaceId, actionSId);
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
    return renderAction(now ?? action);
  }

  /**
   * A member who leaves takes their waiting tool calls along: each is declined with the removal, so
   * a later approval finds nothing to run, and their runs go on as after a refusal.
   */
  @OnEventInTransaction(MemberRemoved)
  async declineForRemovedMember({ workspaceId, user }: MemberRemoved): Promise<void> {
    const declined = await this.actions.declineAwaitingApprover(workspaceId, user.id, APPROVER_LEFT_TEXT);
    for (const action of declined)
      this.inProcessEvents.emitAfterCommit(ActionAnswered, { actionId: action.id });
  }

  /** The calls of a conversation that wait for approval, oldest first. */
  async blocked(caller: Caller, conversationSId: string): Promise<BlockedActionView[]> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const blocked = await this.actions.listBlocked(caller.workspaceId, conversation.id);
    if (blocked.length === 0) return [];
    const messages = await this.messageRepository.findByIds(caller.workspaceId, [
      ...new Set(blocked.map((action) => action.messageId)),
    ]);
    const agentSIds = messages.flatMap((message) =>
      message.type === 'agent_message' ? [message.agentSId] : [],
    );
    const agents = new Map(
      (await this.agents.describe(caller, [...new Set(agentSIds)])).map(({ agent }) => [
        agent.sId,
        agent.name,
      ]),
    );
    const bySId = new Map(messages.map((message) => [message.id, message]));
    return blocked.flatMap((action) => {
      const message = bySId.get(action.messageId);
      if (message?.type !== 'agent_message') return [];
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
        },
      ];
    });
  }
}

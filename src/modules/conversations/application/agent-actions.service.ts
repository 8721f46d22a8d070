import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { ConflictError, DomainError, ForbiddenError } from 'src/platform/errors/domain-error';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import type { Run } from 'src/modules/conversations/application/agent-messages.service';
import { ActionView, renderAction } from 'src/modules/conversations/application/action-views';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { MessagesService } from 'src/modules/conversations/application/messages.service';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import {
  ActionOutcome,
  ActionRepository,
} from 'src/modules/conversations/application/ports/action.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import type { ActionStatus, AgentAction } from 'src/modules/conversations/domain/action';

export type { ActionOutcome } from 'src/modules/conversations/application/ports/action.repository';
export type { AgentAction, ActionStatus } from 'src/modules/conversations/domain/action';

/** A tool call a model step asked for, as the runtime resolved it. */
export interface NewCall {
  toolCallId: string;
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  params: Record<string, unknown>;
  /** The call waits for the approver's answer before it runs. */
  needsApproval: boolean;
}

/** What `validate-action` takes. */
export type ApprovalAnswer = 'approved' | 'rejected';

/** A call waiting for approval, as `actions/blocked` lists it. */
export interface BlockedActionView {
  conversationId: string;
  messageId: string;
  configurationId: string;
  actionId: string;
  functionCallName: string;
  inputs: Record<string, unknown>;
  metadata: { toolName: string; mcpServerName: string; agentName: string };
  createdAt: number;
  /** ms since the epoch: unanswered by then, the call is declined. */
  expiresAt: number | null;
}

/** The step of the actions that say which toolset entries a run was not offered. */
export const UNAVAILABLE_STEP = -1;

export const DECLINED_TEXT = 'The user declined to run this tool. Do not call it again for this request.';
export const EXPIRED_TEXT =
  'Nobody approved this tool call in time, so it did not run. Tell the user it needs their approval.';

/**
 * The tool calls of agent messages: recorded when a step asks for them, settled once, and those
 * that need approval answered through `validate-action`. Each change writes its event for the
 * message's stream in the same transaction.
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly messageRepository: MessageRepository,
    private readonly agents: AgentsService,
    private readonly conversationRepository: ConversationRepository,
    private readonly actions: ActionRepository,
    private readonly events: ConversationEventLog,
    private readonly unitOfWork: UnitOfWork,
    private readonly inProcessEvents: InProcessEvents,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a step's calls: `running`, or `blocked_validation_required` until `approvalDeadline`
   * for those that need approval (and the approver must now act in the conversation).
   */
  record(run: Run, step: number, calls: NewCall[], approvalDeadline: Date): Promise<AgentAction[]> {
    const { caller, conversation, message } = run;
    return this.unitOfWork.run(async () => {
      const recorded = await this.actions.insert(
        calls.map((call) => ({
          sId: generatePrefixedSId('act'),
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          messageId: message.id,
          step,
          toolCallId: call.toolCallId,
          functionCallName: call.functionCallName,
          mcpServerName: call.mcpServerName,
          toolName: call.toolName,
          params: call.params,
          status: call.needsApproval ? 'blocked_validation_required' : 'running',
          output: null,
          approvalDeadline: call.needsApproval ? approvalDeadline : null,
          approverId: call.needsApproval ? caller.userId : null,
        })),
      );
      for (const action of recorded) {
        const common = this.common(run);
        await this.events.append(caller.workspaceId, conversation.id, {
          type: 'tool_params',
          ...common,
          action: renderAction(action),
        });
        if (action.status !== 'blocked_validation_required') continue;
        await this.events.append(caller.workspaceId, conversation.id, {
          type: 'tool_approve_execution',
          ...common,
          conversationId: conversation.sId,
          actionId: action.sId,
          inputs: action.params,
          metadata: {
            toolName: action.toolName,
            mcpServerName: action.mcpServerName,
            agentName: run.agent.name,
          },
          action: renderAction(action),
        });
      }
      if (recorded.some((action) => action.status === 'blocked_validation_required'))
        await this.conversationRepository.setActionRequired(
          caller.workspaceId,
          conversation.id,
          caller.userId,
          true,
        );
      return recorded;
    });
  }

  /**
   * Says, on the message, why toolset entries offer nothing to this run (a server no longer shared
   * to a space the member can access, a server not configured here): one failed action each, at
   * step -1, before the model's first step.
   */
  recordUnavailable(run: Run, servers: { name: string; reason: string }[]): Promise<void> {
    const { caller, conversation, message } = run;
    return this.unitOfWork.run(async () => {
      const recorded = await this.actions.insert(
        servers.map((server, index) => ({
          sId: generatePrefixedSId('act'),
          workspaceId: caller.workspaceId,
          conversationId: conversation.id,
          messageId: message.id,
          step: UNAVAILABLE_STEP,
          toolCallId: `unavailable_${index + 1}`,
          functionCallName: server.name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64),
          mcpServerName: server.name,
          toolName: '',
          params: {},
          status: 'failed',
          output: [{ type: 'text', text: `Not offered to this run: ${server.reason}` }],
          approvalDeadline: null,
          approverId: null,
        })),
      );
      for (const action of recorded) await this.announceSettled(run, action);
    });
  }

  /**
   * Settles an action that is `from` and writes its event: `agent_action_success` when it
   * succeeded, `tool_error` otherwise. False when another outcome came first.
   */
  settle(run: Run, action: AgentAction, from: ActionStatus, outcome: ActionOutcome): Promise<boolean> {
    return this.unitOfWork.run(async () => {
      if (!(await this.actions.settle(action.workspaceId, action.id, from, outcome))) return false;
      await this.announceSettled(run, { ...action, ...outcome });
      if (from === 'blocked_validation_required') await this.refreshActionRequired(action);
      return true;
    });
  }

  /**
   * The call of a running action starts. An approved call keeps its deadline until then, so a run
   * resumed after a restart runs the approved calls that never started, and fails those that did.
   */
  markStarted(action: AgentAction): Promise<void> {
    return this.actions.markStarted(action.workspaceId, action.id);
  }

  /**
   * Declines the calls of a finished message that still wait for approval (cancelled, or failed
   * while no process held its run): nobody needs to answer them any more.
   */
  async declineWaiting(
    conversation: { id: number; workspaceId: number },
    message: { id: number; sId: string; agentSId: string },
    text: string,
  ): Promise<void> {
    const waiting = (await this.actions.listForMessages(conversation.workspaceId, [message.id])).filter(
      (action) => action.status === 'blocked_validation_required',
    );
    const outcome = {
      status: 'denied' as const,
      output: [{ type: 'text' as const, text }],
      executionDurationMs: 0,
    };
    for (const action of waiting) {
      if (await this.actions.settle(action.workspaceId, action.id, 'blocked_validation_required', outcome))
        await this.announceSettled({ conversation, message }, { ...action, ...outcome });
    }
    if (waiting.length > 0) await this.refreshActionRequired(waiting[0]);
  }

  /** The action as it is now (the run polls a waiting call's status). */
  current(action: AgentAction): Promise<AgentAction | null> {
    return this.actions.findById(action.workspaceId, action.id);
  }

  /** The actions of an agent message, in call order (a resumed run rebuilds its steps from them). */
  listForMessage(workspaceId: number, messageId: number): Promise<AgentAction[]> {
    return this.actions.listForMessages(workspaceId, [messageId]);
  }

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
    const answered = await this.unitOfWork.run(async () => {
      const moved =
        answer === 'approved'
          ? await this.actions.transition(
              caller.workspaceId,
              action.id,
              'blocked_validation_required',
              'running',
            )
          : await this.actions.settle(caller.workspaceId, action.id, 'blocked_validation_required', {
              status: 'denied',
              output: [{ type: 'text', text: DECLINED_TEXT }],
              executionDurationMs: 0,
            });
      if (!moved) return null;
      const now = await this.actions.findById(caller.workspaceId, action.id);
      if (answer === 'rejected' && now) {
        await this.announceSettled(
          { conversation, message: { sId: message.sId, agentSId: message.agentSId } },
          now,
        );
      }
      await this.refreshActionRequired(action);
      this.inProcessEvents.emitAfterCommit('conversation.action_answered', { actionId: action.id });
      return now;
    });
    if (!answered) {
      const now = await this.actions.findById(caller.workspaceId, action.id);
      throw new ConflictError(
        `This tool call is not waiting for approval (it is ${now?.status ?? 'gone'}); it cannot be answered again.`,
      );
    }
    return renderAction(answered);
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

  private common(run: Pick<Run, 'message'> | { message: { sId: string; agentSId: string } }) {
    return {
      created: this.clock.now().getTime(),
      configurationId: run.message.agentSId,
      messageId: run.message.sId,
    };
  }

  private async announceSettled(
    run: { conversation: { id: number; workspaceId: number }; message: { sId: string; agentSId: string } },
    action: AgentAction,
  ): Promise<void> {
    const common = this.common(run);
    const view = renderAction(action);
    await this.events.append(
      run.conversation.workspaceId,
      run.conversation.id,
      action.status === 'succeeded'
        ? { type: 'agent_action_success', ...common, action: view }
        : {
            type: 'tool_error',
            ...common,
            action: view,
            error: {
              code: action.status === 'denied' ? 'tool_call_denied' : 'tool_call_failed',
              message: action.output?.map((item) => item.text).join('\n') ?? '',
            },
          },
    );
  }

  /** The approver must act while any call of the conversation still waits for them. */
  private async refreshActionRequired(action: AgentAction): Promise<void> {
    if (action.approverId === null) return;
    const waiting = await this.actions.awaitsApprover(
      action.workspaceId,
      action.conversationId,
      action.approverId,
    );
    await this.conversationRepository.setActionRequired(
      action.workspaceId,
      action.conversationId,
      action.approverId,
      waiting,
    );
  }
}

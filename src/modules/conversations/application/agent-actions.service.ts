import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { generatePrefixedSId } from 'src/platform/ids/sid';
import type { Run } from 'src/modules/conversations/application/agent-run';
import { renderAction } from 'src/modules/conversations/application/action-views';
import {
  ActionOutcome,
  ActionRepository,
} from 'src/modules/conversations/application/ports/action.repository';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
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

/** The conversation and agent message an action belongs to, as its events name them. */
export interface ActionTarget {
  conversation: { id: number; workspaceId: number };
  message: { sId: string; agentSId: string };
}

/** The step of the actions that say which toolset entries a run was not offered. */
export const UNAVAILABLE_STEP = -1;

export const EXPIRED_TEXT =
  'Nobody approved this tool call in time, so it did not run. Tell the user it needs their approval.';

/**
 * The tool calls of agent messages: recorded when a step asks for them, settled once (those that
 * need approval once answered, see `ActionApprovalsService`). Each change writes its event for the
 * message's stream in the same transaction.
 */
@Injectable()
export class AgentActionsService {
  constructor(
    private readonly conversationRepository: ConversationRepository,
    private readonly actions: ActionRepository,
    private readonly messages: MessageRepository,
    private readonly events: ConversationEventLog,
    private readonly accessChanges: AccessChanges,
    private readonly unitOfWork: UnitOfWork,
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
   * succeeded, `tool_error` otherwise. False when another outcome came first. `dataSpaceSIds`, the
   * restricted spaces whose data the run brought in, join the conversation's requested spaces in
   * the same transaction, announced before the event, so only their members ever read the output.
   */
  settle(
    target: ActionTarget,
    action: AgentAction,
    from: ActionStatus,
    outcome: ActionOutcome,
    dataSpaceSIds: readonly string[] = [],
  ): Promise<boolean> {
    return this.unitOfWork.run(async () => {
      if (!(await this.actions.settle(action.workspaceId, action.id, from, outcome))) return false;
      await this.requestSpaces(target.conversation, dataSpaceSIds);
      await this.announceSettled(target, { ...action, ...outcome });
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

  /**
   * Declines every call that waits for this member's approval, each with its event, in the current
   * transaction (the member left: nobody may have a tool run for them any more). Answers those declined.
   */
  async declineAwaitingApprover(workspaceId: number, userId: number, text: string): Promise<AgentAction[]> {
    const waiting = await this.actions.listAwaitingApprover(workspaceId, userId);
    const messageIds = [...new Set(waiting.map((action) => action.messageId))];
    const messages = await this.messages.findByIds(workspaceId, messageIds);
    for (const message of messages) {
      if (message.type !== 'agent_message') continue;
      await this.declineWaiting({ id: message.conversationId, workspaceId }, message, text);
    }
    return waiting;
  }

  /** The action as it is now (the run polls a waiting call's status). */
  current(action: AgentAction): Promise<AgentAction | null> {
    return this.actions.findById(action.workspaceId, action.id);
  }

  /** The actions of an agent message, in call order (a resumed run rebuilds its steps from them). */
  listForMessage(workspaceId: number, messageId: number): Promise<AgentAction[]> {
    return this.actions.listForMessages(workspaceId, [messageId]);
  }

  /** An action by sId, when it exists in the workspace. */
  findBySId(workspaceId: number, sId: string): Promise<AgentAction | null> {
    return this.actions.findBySId(workspaceId, sId);
  }

  /** The calls of a conversation that wait for approval, oldest first. */
  listBlocked(workspaceId: number, conversationId: number): Promise<AgentAction[]> {
    return this.actions.listBlocked(workspaceId, conversationId);
  }

  /** An approved call moves to `running` (its run executes it); false when it no longer waited. */
  approve(action: AgentAction): Promise<boolean> {
    return this.unitOfWork.run(async () => {
      const moved = await this.actions.transition(
        action.workspaceId,
        action.id,
        'blocked_validation_required',
        'running',
      );
      if (moved) await this.refreshActionRequired(action);
      return moved;
    });
  }

  /** Readers of the conversation must access these spaces from now on; its open streams re-check theirs. */
  private async requestSpaces(
    conversation: { id: number; workspaceId: number },
    spaceSIds: readonly string[],
  ): Promise<void> {
    if (spaceSIds.length === 0) return;
    const added = await this.conversationRepository.addRequestedSpaces(
      conversation.workspaceId,
      conversation.id,
      spaceSIds,
    );
    if (added)
      await this.accessChanges.announce({ kind: 'conversation_changed', conversationId: conversation.id });
  }

  private common(run: Pick<Run, 'message'> | { message: { sId: string; agentSId: string } }) {
    return {
      created: this.clock.now().getTime(),
      configurationId: run.message.agentSId,
      messageId: run.message.sId,
    };
  }

  private async announceSettled(run: ActionTarget, action: AgentAction): Promise<void> {
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

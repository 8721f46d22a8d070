import { Injectable } from '@nestjs/common';
import { Clock } from 'src/platform/clock/clock';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationEventLog } from 'src/platform/events/conversation-event';
import { renderAction } from 'src/modules/conversations/application/action-views';
import type { AnswerAction } from 'src/modules/conversations/application/ports/answer-actions';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import type { ConversationEvent } from 'src/modules/conversations/application/views/conversation-event.view';

/** A conversation as an answer's tool calls change it: by ids, as the runtime holds them. */
export interface ConversationRef {
  id: number;
  workspaceId: number;
}

/** The agent message a tool call belongs to, and its conversation, as the call's events name them. */
export interface CallTarget {
  conversation: ConversationRef;
  message: { sId: string; agentSId: string };
}

/**
 * What the tool calls of an answer change in its conversation: their events on the message's
 * stream, who must act there, and which spaces its readers must access. Each joins the caller's
 * transaction.
 */
@Injectable()
export class AnswerEffectsService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly accessChanges: AccessChanges,
    private readonly events: ConversationEventLog<ConversationEvent>,
    private readonly clock: Clock,
  ) {}

  /**
   * A recorded tool call on its message's stream (`tool_params`), followed, when it waits for
   * approval, by the request (`tool_approve_execution`) naming the agent that asks.
   */
  async announceCall(
    target: CallTarget & { conversation: { sId: string } },
    action: AnswerAction,
    agentName: string,
  ): Promise<void> {
    const { workspaceId, id } = target.conversation;
    const common = this.common(target);
    const view = renderAction(action);
    await this.events.append(workspaceId, id, { type: 'tool_params', ...common, action: view });
    if (action.status !== 'blocked_validation_required') return;
    await this.events.append(workspaceId, id, {
      type: 'tool_approve_execution',
      ...common,
      conversationId: target.conversation.sId,
      actionId: action.sId,
      inputs: action.params,
      metadata: { toolName: action.toolName, mcpServerName: action.mcpServerName, agentName },
      action: view,
    });
  }

  /** A settled tool call on its message's stream: `agent_action_success`, or `tool_error` (failed or denied). */
  async announceSettled(target: CallTarget, action: AnswerAction): Promise<void> {
    const common = this.common(target);
    const view = renderAction(action);
    await this.events.append(
      target.conversation.workspaceId,
      target.conversation.id,
      action.status === 'succeeded'
        ? { type: 'agent_action_success', ...common, action: view }
        : {
            type: 'tool_error',
            ...common,
            action: view,
            error: {
              code: action.status === 'denied' ? 'tool_call_denied' : 'tool_call_failed',
              message: action.output?.map((item) => item.text).join('\n') ?? '',
              metadata: null,
            },
          },
    );
  }

  /** Whether `userId` must act in the conversation: one of its answers waits for their approval. */
  async requireAction(conversation: ConversationRef, userId: number, required: boolean): Promise<void> {
    await this.conversations.setActionRequired(conversation.workspaceId, conversation.id, userId, required);
  }

  /**
   * An answer brought in the data of these restricted spaces: readers of the conversation must
   * access them from now on, and its open streams re-check theirs.
   */
  async requestSpaces(conversation: ConversationRef, spaceSIds: readonly string[]): Promise<void> {
    if (spaceSIds.length === 0) return;
    const added = await this.conversations.addRequestedSpaces(
      conversation.workspaceId,
      conversation.id,
      spaceSIds,
    );
    if (added)
      await this.accessChanges.announce({ kind: 'conversation_changed', conversationId: conversation.id });
  }

  private common(target: CallTarget) {
    return {
      created: this.clock.now().getTime(),
      configurationId: target.message.agentSId,
      messageId: target.message.sId,
    };
  }
}

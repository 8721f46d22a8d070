import { Injectable } from '@nestjs/common';
import { AgentMessagesService, AnswerEffectsService } from 'src/modules/conversations/conversations.api';
import type { MessagePosted } from 'src/modules/conversations/conversations.api';
import {
  ActionTarget,
  AnswerOutcome,
  AnswerSink,
  AnswerTarget,
  ConversationIds,
  PostedMessage,
  RunAnswer,
  TokensClassification,
} from 'src/modules/runtime/runtime.api';
import type { RunAction } from 'src/modules/runtime/runtime.api';

/** Where the runtime writes its answers: conversations' agent messages, and what their calls change. */
@Injectable()
export class AnswerSinkAdapter extends AnswerSink {
  constructor(
    private readonly agentMessages: AgentMessagesService,
    private readonly effects: AnswerEffectsService,
  ) {
    super();
  }

  start(posted: MessagePosted): Promise<RunAnswer[]> {
    return this.agentMessages.start(posted);
  }

  appendTokens(
    target: AnswerTarget,
    text: string,
    classification?: TokensClassification,
    urgent?: boolean,
  ): Promise<boolean> {
    return this.agentMessages.appendTokens(target, text, classification, urgent);
  }

  finish(
    answer: AnswerTarget & { agent?: RunAnswer['agent']; runId?: number },
    outcome: AnswerOutcome,
  ): Promise<boolean> {
    return this.agentMessages.finish(answer, outcome);
  }

  findAnswers(workspaceId: number, messageIds: number[]): Promise<AnswerTarget[]> {
    return this.agentMessages.findAnswers(workspaceId, messageIds);
  }

  postedMessage(
    workspaceId: number,
    conversationId: number,
    messageId: number,
    rerunIds: number[],
  ): Promise<PostedMessage | null> {
    return this.agentMessages.postedMessage(workspaceId, conversationId, messageId, rerunIds);
  }

  requireAction(conversation: ConversationIds, userId: number, required: boolean): Promise<void> {
    return this.effects.requireAction(conversation, userId, required);
  }

  requestSpaces(conversation: ConversationIds, spaceSIds: readonly string[]): Promise<void> {
    return this.effects.requestSpaces(conversation, spaceSIds);
  }

  announceCall(answer: RunAnswer, action: RunAction): Promise<void> {
    return this.effects.announceCall(answer, action, answer.agent.name);
  }

  announceSettled(target: ActionTarget, action: RunAction): Promise<void> {
    return this.effects.announceSettled(target, action);
  }
}

import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import {
  ConversationsService,
  type AgentMessage,
  MessagesService,
} from 'src/modules/conversations/conversations.api';
import { FeedbackRepository } from 'src/modules/feedback/application/ports/feedback.repository';
import { FeedbackEntry, FeedbackInput, giveFeedback } from 'src/modules/feedback/domain/feedback';

/** Feedback on the agent messages of conversations the caller can read. */
@Injectable()
export class FeedbackService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
    private readonly feedbacks: FeedbackRepository,
  ) {}

  /** Gives the caller's feedback on an agent message, replacing the one they gave before. */
  async give(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
    input: FeedbackInput,
  ): Promise<void> {
    const message = await this.agentMessage(caller, conversationSId, messageSId);
    await this.feedbacks.upsert(
      giveFeedback({ workspaceId: caller.workspaceId, messageId: message.id, userId: caller.userId }, input),
    );
  }

  /** Removes the caller's feedback; removing one that does not exist changes nothing and is not an error. */
  async withdraw(caller: Caller, conversationSId: string, messageSId: string): Promise<void> {
    const message = await this.agentMessage(caller, conversationSId, messageSId);
    await this.feedbacks.remove(caller.workspaceId, message.id, caller.userId);
  }

  /** Every member's feedback on the conversation, oldest first. */
  async list(caller: Caller, conversationSId: string): Promise<FeedbackEntry[]> {
    const conversation = await this.conversations.get(caller, conversationSId);
    return this.feedbacks.listForConversation(caller.workspaceId, conversation.id);
  }

  private async agentMessage(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
  ): Promise<AgentMessage> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const message = await this.messages.findMessage(caller, conversation, messageSId);
    if (message.type !== 'agent_message') {
      throw new InvalidRequestError(
        `Message ${messageSId} is a user message: feedback rates agent messages.`,
      );
    }
    return message;
  }
}

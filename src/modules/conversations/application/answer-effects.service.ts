import { Injectable } from '@nestjs/common';
import { AccessChanges } from 'src/platform/events/access-changes';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';

/** A conversation as an answer's tool calls change it: by ids, as the runtime holds them. */
export interface ConversationRef {
  id: number;
  workspaceId: number;
}

/**
 * What the tool calls of an answer change in its conversation: who must act there, and which
 * spaces its readers must access. Each joins the caller's transaction.
 */
@Injectable()
export class AnswerEffectsService {
  constructor(
    private readonly conversations: ConversationRepository,
    private readonly accessChanges: AccessChanges,
  ) {}

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
}

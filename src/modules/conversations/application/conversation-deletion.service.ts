import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { UnitOfWork } from 'src/platform/database/unit-of-work';
import { AccessChanges } from 'src/platform/events/access-changes';
import { InProcessEvents } from 'src/platform/events/in-process-events';
import { ForbiddenError } from 'src/platform/errors/domain-error';
import { ConversationDeleted } from 'src/modules/conversations/application/conversations.events';
import { AgentMessagesService } from 'src/modules/conversations/application/agent-messages.service';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { ConversationRepository } from 'src/modules/conversations/application/ports/conversation.repository';
import { MessageRepository } from 'src/modules/conversations/application/ports/message.repository';
import {
  ConversationAccessRestricted,
  ConversationNotFound,
} from 'src/modules/conversations/domain/conversations.errors';

/** Deletes conversations: soft, so that nothing else is lost, yet gone from every read. */
@Injectable()
export class ConversationDeletionService {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly conversationRepository: ConversationRepository,
    private readonly messages: MessageRepository,
    private readonly agentMessages: AgentMessagesService,
    private readonly accessChanges: AccessChanges,
    private readonly inProcessEvents: InProcessEvents,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /**
   * The creator (its first participant) or an admin deletes; another reader gets 403, and one who
   * cannot read it 404, as if it did not exist. In one transaction: the conversation is marked
   * deleted, its running agent messages cancelled, and what other contexts schedule in it (wake-ups)
   * cancelled; once committed, its open streams are re-checked at once, and close.
   */
  async delete(caller: Caller, sId: string): Promise<void> {
    const conversation = await this.conversations.get(caller, sId).catch((error: unknown) => {
      throw error instanceof ConversationAccessRestricted ? new ConversationNotFound(sId) : error;
    });
    const creatorId = await this.conversationRepository.creatorId(caller.workspaceId, conversation.id);
    if (!caller.isAdmin && creatorId !== caller.userId) {
      throw new ForbiddenError('Only the creator of a conversation or a workspace admin can delete it.');
    }
    await this.unitOfWork.run(async () => {
      // A concurrent delete committed first: nothing more to do.
      if (!(await this.conversationRepository.softDelete(caller.workspaceId, conversation.id))) return;
      // Announced before the cancellations' events, so open streams hold those back until they close.
      await this.accessChanges.announce({ kind: 'conversation_changed', conversationId: conversation.id });
      const running = await this.messages.listRunning(caller.workspaceId, conversation.id);
      await this.agentMessages.cancelRunning(conversation, running);
      await this.inProcessEvents.emitInTransaction(ConversationDeleted, {
        workspaceId: caller.workspaceId,
        conversationId: conversation.id,
      });
    });
  }
}

import { Injectable } from '@nestjs/common';
import { Caller } from 'src/platform/auth/caller';
import { ConversationsService, MessagesService } from 'src/modules/conversations/conversations.api';
import type { RunConversation } from 'src/modules/runtime/runtime.api';
import { ConversationAccess, FoundMessage } from 'src/modules/runtime/runtime.api';

/** A conversation and its messages as a member reaches them, with conversations' checks and errors. */
@Injectable()
export class ConversationAccessAdapter extends ConversationAccess {
  constructor(
    private readonly conversations: ConversationsService,
    private readonly messages: MessagesService,
  ) {
    super();
  }

  conversation(caller: Caller, conversationSId: string): Promise<RunConversation> {
    return this.conversations.get(caller, conversationSId);
  }

  async message(
    caller: Caller,
    conversationSId: string,
    messageSId: string,
  ): Promise<{ conversation: RunConversation; message: FoundMessage }> {
    const conversation = await this.conversations.get(caller, conversationSId);
    const message = await this.messages.findMessage(caller, conversation, messageSId);
    return { conversation, message };
  }
}

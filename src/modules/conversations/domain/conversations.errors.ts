import { DomainError } from 'src/platform/errors/domain-error';

export class ConversationNotFound extends DomainError {
  constructor(sId: string) {
    super('conversation_not_found', `Conversation ${sId} not found.`);
  }
}

export class MessageNotFound extends DomainError {
  constructor(sId: string) {
    super('message_not_found', `Message ${sId} not found in this conversation.`);
  }
}

export class ConversationAccessRestricted extends DomainError {
  constructor() {
    super('conversation_access_restricted', 'This conversation uses agents of spaces you cannot access.');
  }
}

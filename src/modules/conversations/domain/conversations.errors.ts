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

/** A content fragment's sId where a message's is expected: still "not found", saying why. */
export class FragmentIsNotAMessage extends DomainError {
  constructor(sId: string) {
    super(
      'message_not_found',
      `${sId} is a content fragment of this conversation, not a message: a fragment takes no reaction, edit, feedback or action, and cannot be cancelled, followed or forked from.`,
    );
  }
}

export class ConversationAccessRestricted extends DomainError {
  constructor() {
    super(
      'conversation_access_restricted',
      'This conversation holds data of spaces you cannot access, or uses agents that need them.',
    );
  }
}

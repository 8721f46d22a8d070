import { InvalidRequestError } from 'src/platform/errors/domain-error';

export const THUMB_DIRECTIONS = ['up', 'down'] as const;
export type ThumbDirection = (typeof THUMB_DIRECTIONS)[number];

/** Long enough for a paragraph of explanation, short enough to keep a conversation's list small. */
export const FEEDBACK_CONTENT_MAX = 4_000;

/** A member's verdict on one agent message: at most one per member and message. */
export interface Feedback {
  workspaceId: number;
  /** Row id of the agent message. */
  messageId: number;
  userId: number;
  thumbDirection: ThumbDirection;
  /** Empty when the member wrote nothing. */
  content: string;
  /** Whether the member agreed to share the conversation with the agent's builders. */
  isConversationShared: boolean;
}

/** A feedback as listed, with the agent message it rates. */
export interface FeedbackEntry extends Feedback {
  id: number;
  messageSId: string;
  agentSId: string;
  agentVersion: number;
  /** When the member first gave feedback on the message; a replacement keeps it. */
  createdAt: Date;
}

export interface FeedbackInput {
  thumbDirection: string;
  content?: string | null;
  isConversationShared?: boolean;
}

/**
 * The feedback a member gives, replacing any earlier one whole: what the input leaves out is
 * empty content and an unshared conversation, not what the earlier feedback said.
 */
export function giveFeedback(
  on: Pick<Feedback, 'workspaceId' | 'messageId' | 'userId'>,
  input: FeedbackInput,
): Feedback {
  if (!isThumbDirection(input.thumbDirection)) {
    throw new InvalidRequestError(`thumbDirection: must be one of ${THUMB_DIRECTIONS.join(', ')}.`);
  }
  const content = input.content ?? '';
  if (content.length > FEEDBACK_CONTENT_MAX) {
    throw new InvalidRequestError(`feedbackContent: must be at most ${FEEDBACK_CONTENT_MAX} characters.`);
  }
  if (hasControlCharacter(content)) {
    throw new InvalidRequestError(
      'feedbackContent: control characters other than line breaks and tabs are not allowed.',
    );
  }
  return {
    ...on,
    thumbDirection: input.thumbDirection,
    content,
    isConversationShared: input.isConversationShared ?? false,
  };
}

/** PostgreSQL cannot store NUL at all, and no other control character belongs in a comment. */
function hasControlCharacter(text: string): boolean {
  for (const char of text) {
    const code = char.charCodeAt(0);
    if ((code < 0x20 && char !== '\n' && char !== '\r' && char !== '\t') || code === 0x7f) return true;
  }
  return false;
}

function isThumbDirection(value: string): value is ThumbDirection {
  return (THUMB_DIRECTIONS as readonly string[]).includes(value);
}

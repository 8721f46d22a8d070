import type { Feedback, FeedbackEntry } from 'src/modules/feedback/domain/feedback';

/** Port: feedback on agent messages. Every query takes the workspace id. */
export abstract class FeedbackRepository {
  /** Inserts the member's feedback on the message, or replaces theirs in the same statement. */
  abstract upsert(feedback: Feedback): Promise<void>;
  /** Removes the member's feedback on the message, if any. */
  abstract remove(workspaceId: number, messageId: number, userId: number): Promise<void>;
  /** Every feedback on the conversation's messages, oldest first. */
  abstract listForConversation(workspaceId: number, conversationId: number): Promise<FeedbackEntry[]>;
}

import type { ThumbDirection } from 'src/modules/feedback/domain/feedback';

/** The specification's feedback entry, field for field. */
export interface FeedbackEntryView {
  messageId: string;
  agentMessageId: number;
  userId: number;
  thumbDirection: ThumbDirection;
  content: string;
  createdAt: number;
  agentConfigurationId: string;
  agentConfigurationVersion: number;
  isConversationShared: boolean;
}

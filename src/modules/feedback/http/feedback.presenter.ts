import type { FeedbackEntryView } from 'src/modules/feedback/application/views/feedback.view';
import type { FeedbackEntry } from 'src/modules/feedback/domain/feedback';

export const presentFeedback = (entry: FeedbackEntry): FeedbackEntryView => ({
  messageId: entry.messageSId,
  agentMessageId: entry.messageId,
  userId: entry.userId,
  thumbDirection: entry.thumbDirection,
  content: entry.content,
  createdAt: entry.createdAt.getTime(),
  agentConfigurationId: entry.agentSId,
  agentConfigurationVersion: entry.agentVersion,
  isConversationShared: entry.isConversationShared,
});

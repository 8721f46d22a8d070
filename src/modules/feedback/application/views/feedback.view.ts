import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { FeedbackEntry, ThumbDirection } from 'src/modules/feedback/domain/feedback';

/** The specification's feedback entry, field for field. */
@ApiSchema({ name: 'FeedbackEntry' })
export class FeedbackEntryView {
  /** sId of the agent message */
  messageId!: string;
  @ApiProperty({ type: 'integer', description: 'Row id of the agent message' })
  agentMessageId!: number;
  @ApiProperty({ type: 'integer', description: 'Row id of the member who gave the feedback' })
  userId!: number;
  thumbDirection!: ThumbDirection;
  /** Empty when the member wrote nothing. */
  content!: string;
  /** ms since the epoch; a replaced feedback keeps the first one */
  createdAt!: number;
  /** sId of the agent that wrote the message */
  agentConfigurationId!: string;
  @ApiProperty({ type: 'integer', description: 'Version of the agent that wrote the message' })
  agentConfigurationVersion!: number;
  isConversationShared!: boolean;
}

export class FeedbacksResponse {
  /** Oldest first. */
  feedbacks!: FeedbackEntryView[];
}

export class FeedbackSuccessResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export const renderFeedback = (entry: FeedbackEntry): FeedbackEntryView => ({
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

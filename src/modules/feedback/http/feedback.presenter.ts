import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { THUMB_DIRECTIONS, ThumbDirection } from 'src/modules/feedback/domain/feedback';
import type { FeedbackEntry } from 'src/modules/feedback/domain/feedback';

/** The specification's feedback entry, field for field. */
@ApiSchema({ name: 'FeedbackEntry' })
export class FeedbackEntryJson {
  @ApiProperty({ description: 'sId of the agent message' }) messageId!: string;
  @ApiProperty({ type: 'integer', description: 'Row id of the agent message' }) agentMessageId!: number;
  @ApiProperty({ type: 'integer', description: 'Row id of the member who gave the feedback' })
  userId!: number;
  @ApiProperty({ enum: THUMB_DIRECTIONS }) thumbDirection!: ThumbDirection;
  @ApiProperty({ description: 'Empty when the member wrote nothing.' }) content!: string;
  @ApiProperty({ description: 'ms since the epoch; a replaced feedback keeps the first one' })
  createdAt!: number;
  @ApiProperty({ description: 'sId of the agent that wrote the message' }) agentConfigurationId!: string;
  @ApiProperty({ type: 'integer', description: 'Version of the agent that wrote the message' })
  agentConfigurationVersion!: number;
  @ApiProperty() isConversationShared!: boolean;
}

export class FeedbacksResponse {
  @ApiProperty({ type: [FeedbackEntryJson], description: 'Oldest first.' }) feedbacks!: FeedbackEntryJson[];
}

export class FeedbackSuccessResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

export const presentFeedback = (entry: FeedbackEntry): FeedbackEntryJson => ({
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

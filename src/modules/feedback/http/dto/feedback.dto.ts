import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { FEEDBACK_CONTENT_MAX, THUMB_DIRECTIONS, ThumbDirection } from 'src/modules/feedback/domain/feedback';

export class GiveFeedbackDto {
  @IsIn(THUMB_DIRECTIONS)
  thumbDirection!: ThumbDirection;

  /** What the member says about the answer; absent or null: none. */
  @IsOptional()
  @IsString()
  @MaxLength(FEEDBACK_CONTENT_MAX)
  feedbackContent?: string | null;

  /** Whether the member agrees to share the conversation with the agent's builders. */
  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  isConversationShared?: boolean;
}

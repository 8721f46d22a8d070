import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { FEEDBACK_CONTENT_MAX, THUMB_DIRECTIONS, ThumbDirection } from 'src/modules/feedback/domain/feedback';

export class GiveFeedbackDto {
  @ApiProperty({ enum: THUMB_DIRECTIONS })
  @IsIn(THUMB_DIRECTIONS)
  thumbDirection!: ThumbDirection;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: FEEDBACK_CONTENT_MAX,
    description: 'What the member says about the answer; absent or null: none.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(FEEDBACK_CONTENT_MAX)
  feedbackContent?: string | null;

  @ApiPropertyOptional({
    default: false,
    description: "Whether the member agrees to share the conversation with the agent's builders.",
  })
  @IsOptional()
  @IsBoolean()
  isConversationShared?: boolean;
}

import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { TITLE_MAX } from 'src/modules/conversations/domain/conversation';
import { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import { PostMessageDto } from 'src/modules/conversations/http/dto/message.dto';

export class CreateConversationDto {
  @ApiPropertyOptional({ example: 'Refund questions' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TITLE_MAX)
  @HumanName()
  title?: string;

  @ApiPropertyOptional({ description: 'sId of a space the caller can access', example: 'vlt_Qh4sN9cX2m' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  spaceId?: string;

  @IsOptional()
  @NestedObject(() => PostMessageDto)
  message?: PostMessageDto;

  /** Files or inline text put in the conversation before its first message. */
  @OptionalNestedList(() => ContentFragmentDto, FRAGMENTS_PER_REQUEST_MAX)
  contentFragments?: ContentFragmentDto[];

  // Dust's client sends the next three on every creation; only the behaviour this service has is taken.
  @ApiPropertyOptional({
    enum: ['unlisted'],
    description: 'Conversations are seen by their participants (`unlisted`, the default).',
  })
  @IsOptional()
  @IsIn(['unlisted'])
  visibility?: 'unlisted';

  @ApiPropertyOptional({
    enum: [false],
    description: "The answer never waits for the agents' answers: stream their events. `true` is refused.",
  })
  @IsOptional()
  @IsIn([false])
  blocking?: false;

  @ApiPropertyOptional({
    enum: [false],
    description: 'Tools that require approval always wait for it. `true` is refused.',
  })
  @IsOptional()
  @IsIn([false])
  skipToolsValidation?: false;
}

export class UpdateConversationDto {
  @ApiPropertyOptional({ example: 'Refunds: the 30-day rule' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TITLE_MAX)
  @HumanName()
  title?: string;

  @ApiPropertyOptional({ description: 'true marks the conversation read for the caller; false unread.' })
  @IsOptional()
  @IsBoolean()
  read?: boolean;
}

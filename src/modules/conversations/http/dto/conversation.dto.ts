import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { CONVERSATION_DEPTH_MAX, TITLE_MAX } from 'src/modules/conversations/domain/conversation';
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

  /** One more fragment, put before those of `contentFragments` (Dust's singular form). */
  @IsOptional()
  @NestedObject(() => ContentFragmentDto)
  contentFragment?: ContentFragmentDto;

  /**
   * The conversation's `depth`, as Dust's clients give it (a conversation an agent started is
   * deeper than its origin): kept and shown. A fork is one deeper than its parent.
   */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(CONVERSATION_DEPTH_MAX)
  depth?: number;

  // Dust's client sends the next three on every creation; only the behaviour this service has is taken.
  @ApiPropertyOptional({
    enum: ['unlisted'],
    description: 'Conversations are seen by their participants (`unlisted`, the default).',
  })
  @IsOptional()
  @IsIn(['unlisted'])
  visibility?: 'unlisted';

  /**
   * true (here or as `message.blocking`): the answer comes once the mentioned agents have answered
   * (at most 2 minutes), the conversation's content then holds their answers.
   */
  @IsOptional()
  @IsBoolean()
  blocking?: boolean;

  /** true: the tools of the first message's runs run without waiting for approval (the creator's to give). */
  @IsOptional()
  @IsBoolean()
  skipToolsValidation?: boolean;
}

export class UpdateConversationDto extends PickType(CreateConversationDto, ['title']) {
  @ApiPropertyOptional({ example: 'Refunds: the 30-day rule' }) declare title?: string;

  @ApiPropertyOptional({ description: 'true marks the conversation read for the caller; false unread.' })
  @IsOptional()
  @IsBoolean()
  read?: boolean;
}

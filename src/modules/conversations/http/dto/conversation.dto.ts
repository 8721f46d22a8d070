import { ApiPropertyOptional, PickType } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { Flag, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { CONVERSATION_DEPTH_MAX, TITLE_MAX } from 'src/modules/conversations/domain/conversation';
import { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import { PostMessageDto } from 'src/modules/conversations/http/dto/message.dto';

export class CreateConversationDto {
  /** @example "Refund questions" */
  @Text({ min: 1, max: TITLE_MAX, human: true, presence: 'optional' })
  title?: string;

  /**
   * sId of a space the caller can access
   * @example vlt_Qh4sN9cX2m
   */
  @SidRef({ presence: 'optional' })
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
  @Integer({ min: 0, max: CONVERSATION_DEPTH_MAX, presence: 'optional' })
  depth?: number;

  /** Conversations are seen by their participants (`unlisted`, the default). */
  // Dust's client sends this and the next two on every creation; only the behaviour this service has is taken.
  @OneOf(['unlisted'], { presence: 'optional' })
  visibility?: 'unlisted';

  /**
   * true (here or as `message.blocking`): the answer comes once the mentioned agents have answered
   * (at most 2 minutes), the conversation's content then holds their answers.
   */
  @Flag({ presence: 'optional' })
  blocking?: boolean;

  /** true: the tools of the first message's runs run without waiting for approval (the creator's to give). */
  @Flag({ presence: 'optional' })
  skipToolsValidation?: boolean;
}

export class UpdateConversationDto extends PickType(CreateConversationDto, ['title']) {
  @ApiPropertyOptional({ example: 'Refunds: the 30-day rule' }) declare title?: string;

  /** true marks the conversation read for the caller; false unread. */
  @Flag({ presence: 'optional' })
  read?: boolean;
}

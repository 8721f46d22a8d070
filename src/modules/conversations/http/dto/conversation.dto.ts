import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { TITLE_MAX } from 'src/modules/conversations/domain/conversation';
import { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import {
  CONTENT_MAX,
  EMOJI_MAX,
  MENTIONS_MAX,
  MESSAGE_ORIGINS,
  MessageOrigin,
} from 'src/modules/conversations/domain/message';

/** The origins a client may give; the service's own messages (wake-ups, triggers) say theirs. */
const CLIENT_ORIGINS = MESSAGE_ORIGINS.filter((origin) => origin !== 'wakeup' && origin !== 'triggered');

export class MentionDto {
  @ApiPropertyOptional({ description: 'sId of a mentioned agent', example: 'Ag4tB7nM1q' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  configurationId?: string;

  @ApiPropertyOptional({ enum: ['user'], description: 'With userId: a mentioned member' })
  @IsOptional()
  @IsIn(['user'])
  type?: 'user';

  @ApiPropertyOptional({ description: 'sId of the mentioned member', example: 'Us8rT6Yp2W' })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  userId?: string;
}

export class MessageContextDto {
  @ApiProperty({ example: 'ada' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  @HumanName()
  username!: string;

  @ApiProperty({ example: 'Europe/Paris' })
  @IsString()
  @MaxLength(64)
  timezone!: string;

  @ApiPropertyOptional({ enum: CLIENT_ORIGINS, default: 'api' })
  @IsOptional()
  @IsIn(CLIENT_ORIGINS)
  origin?: MessageOrigin;

  @ApiPropertyOptional({ example: 'Ada Lovelace' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @HumanName()
  fullName?: string;

  @ApiPropertyOptional({ example: 'ada@example.com' })
  @IsOptional()
  @IsEmail()
  email?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  profilePictureUrl?: string;
}

export class EditMessageDto {
  @ApiProperty({ example: 'Summarise our refund policy in two lines.' })
  @IsString()
  @MinLength(1)
  @MaxLength(CONTENT_MAX)
  content!: string;

  @ApiProperty({ type: [MentionDto] })
  @IsArray()
  @ArrayMaxSize(MENTIONS_MAX)
  @ValidateNested({ each: true })
  @Type(() => MentionDto)
  mentions!: MentionDto[];
}

export class PostMessageDto extends EditMessageDto {
  @ApiProperty({ type: MessageContextDto })
  @IsObject()
  @ValidateNested()
  @Type(() => MessageContextDto)
  context!: MessageContextDto;
}

/** The body of a post: a message and the content fragments that come before it. */
export class PostMessageWithFragmentsDto extends PostMessageDto {
  @ApiPropertyOptional({
    type: [ContentFragmentDto],
    maxItems: FRAGMENTS_PER_REQUEST_MAX,
    description: 'Files or inline text put in the conversation just before the message.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(FRAGMENTS_PER_REQUEST_MAX)
  @ValidateNested({ each: true })
  @Type(() => ContentFragmentDto)
  contentFragments?: ContentFragmentDto[];
}

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

  @ApiPropertyOptional({ type: PostMessageDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PostMessageDto)
  message?: PostMessageDto;

  @ApiPropertyOptional({
    type: [ContentFragmentDto],
    maxItems: FRAGMENTS_PER_REQUEST_MAX,
    description: 'Files or inline text put in the conversation before its first message.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(FRAGMENTS_PER_REQUEST_MAX)
  @ValidateNested({ each: true })
  @Type(() => ContentFragmentDto)
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

export class ReactionDto {
  @ApiProperty({
    example: '👍',
    description:
      'One emoji (a grapheme of the Unicode RGI emoji set; its text form such as ❤ is stored as ❤️) or a :shortcode: (lower-case letters, digits, _ + -).',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(EMOJI_MAX)
  emoji!: string;
}

export class ForkDto {
  @ApiProperty({ description: 'sId of the last message the fork keeps', example: 'Ms5bK2pW7e' })
  @IsString()
  @Matches(SID_PATTERN)
  sourceMessageId!: string;
}

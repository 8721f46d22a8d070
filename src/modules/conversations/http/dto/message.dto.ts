import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import {
  CONTENT_MAX,
  MENTIONS_MAX,
  MESSAGE_ORIGINS,
  MessageOrigin,
} from 'src/modules/conversations/domain/message';

/** A user message as pasted into "Try it out": the mention makes the agent answer it. */
export const MESSAGE_EXAMPLE = {
  content: 'Summarise our refund policy in two lines.',
  mentions: [{ configurationId: 'Ag4tB7nM1q' }],
  context: { username: 'ada', timezone: 'Europe/Paris' },
};

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
  @NestedObject(() => MessageContextDto)
  context!: MessageContextDto;
}

/** The body of a post: a message and the content fragments that come before it. */
export class PostMessageWithFragmentsDto extends PostMessageDto {
  /** Files or inline text put in the conversation just before the message. */
  @OptionalNestedList(() => ContentFragmentDto, FRAGMENTS_PER_REQUEST_MAX)
  contentFragments?: ContentFragmentDto[];
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject, OptionalNestedList } from 'src/platform/http/nested-input';
import { SID_PATTERN } from 'src/platform/http/route-params';
import { FRAGMENTS_PER_REQUEST_MAX } from 'src/modules/conversations/domain/content-fragment';
import { ContentFragmentDto } from 'src/modules/conversations/http/dto/content-fragment.dto';
import {
  CLIENT_SIDE_SERVERS_PER_MESSAGE,
  CONTENT_MAX,
  MENTIONS_MAX,
  MESSAGE_ORIGINS,
  MessageOrigin,
} from 'src/modules/conversations/domain/message';

/** Tool server views one message may name. */
export const SERVERS_PER_MESSAGE_MAX = 16;

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

  /**
   * Client-side MCP servers (their ids, as `mcp/register` gave them) the client lends to this
   * message's runs; only the author's own live servers count.
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CLIENT_SIDE_SERVERS_PER_MESSAGE)
  @IsString({ each: true })
  @Matches(SID_PATTERN, { each: true, message: 'each clientSideMCPServerIds item must be a server id.' })
  clientSideMCPServerIds?: string[] | null;

  /**
   * sIds of tool server views, in spaces the caller can access, whose tools this message's runs get
   * besides their agent's.
   * @example ["msv_4RbQ7yLm2P"]
   */
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(SERVERS_PER_MESSAGE_MAX)
  @IsString({ each: true })
  @Matches(SID_PATTERN, { each: true })
  selectedMCPServerViewIds?: string[] | null;

  /** When the trigger posting the message last ran (ms since the epoch); kept on its context. */
  @IsOptional()
  @IsInt()
  @Min(0)
  lastTriggerRunAt?: number | null;
}

/** Set when an agent posts a message for another (Dust's `agenticMessageData`). */
export class AgenticMessageDataDto {
  @ApiProperty({ enum: ['run_agent', 'agent_handover'] })
  @IsIn(['run_agent', 'agent_handover'])
  type!: 'run_agent' | 'agent_handover';

  /** sId of the message the agent acted on. */
  @IsString()
  @Matches(SID_PATTERN)
  originMessageId!: string;
}

/** Dust's per-message choice of model; accepted only as the mentioned agents' own model. */
export class ModelSelectionDto {
  /** @example openai */
  @IsString()
  @MaxLength(64)
  providerId!: string;

  /** @example gpt-4o-mini */
  @IsString()
  @MaxLength(128)
  modelId!: string;

  @IsOptional()
  @IsIn(['none', 'light', 'medium', 'high'])
  reasoningEffort?: 'none' | 'light' | 'medium' | 'high';
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

  @IsOptional()
  @NestedObject(() => AgenticMessageDataDto)
  agenticMessageData?: AgenticMessageDataDto | null;

  /** Runs the mentioned agents on this model: refused with 400 unless it is their own. */
  @IsOptional()
  @NestedObject(() => ModelSelectionDto)
  modelSelection?: ModelSelectionDto;

  /** true: the answer comes once the mentioned agents have answered (at most 2 minutes), their answers in it. */
  @IsOptional()
  @IsBoolean()
  blocking?: boolean;
}

/** The body of a post: a message and the content fragments that come before it. */
export class PostMessageWithFragmentsDto extends PostMessageDto {
  /** true: the tools of this message's runs run without waiting for approval (the poster's to give). */
  @IsOptional()
  @IsBoolean()
  skipToolsValidation?: boolean;

  /** Files or inline text put in the conversation just before the message. */
  @OptionalNestedList(() => ContentFragmentDto, FRAGMENTS_PER_REQUEST_MAX)
  contentFragments?: ContentFragmentDto[];
}

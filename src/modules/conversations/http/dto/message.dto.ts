import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { EmailAddress, Flag, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
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
  /**
   * sId of a mentioned agent
   * @example Ag4tB7nM1q
   */
  @SidRef({ presence: 'optional' })
  configurationId?: string;

  /** With userId: a mentioned member */
  @OneOf(['user'], { presence: 'optional' })
  type?: 'user';

  /**
   * sId of the mentioned member
   * @example Us8rT6Yp2W
   */
  @SidRef({ presence: 'optional' })
  userId?: string;
}

export class MessageContextDto {
  /** @example ada */
  @Text({ min: 1, max: 200, human: true })
  username!: string;

  /** @example Europe/Paris */
  @Text({ max: 64 })
  timezone!: string;

  @ApiPropertyOptional({ default: 'api' })
  @OneOf(CLIENT_ORIGINS, { presence: 'optional' })
  origin?: MessageOrigin;

  /** @example "Ada Lovelace" */
  @Text({ max: 200, human: true, presence: 'optional' })
  fullName?: string;

  /** @example ada@example.com */
  @EmailAddress({ presence: 'optional' })
  email?: string;

  @Text({ max: 2048, presence: 'optional' })
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
  @SidRef({ each: true })
  selectedMCPServerViewIds?: string[] | null;

  /** When the trigger posting the message last ran (ms since the epoch); kept on its context. */
  @Integer({ min: 0, presence: 'optional' })
  lastTriggerRunAt?: number | null;
}

/** Set when an agent posts a message for another (Dust's `agenticMessageData`). */
export class AgenticMessageDataDto {
  @OneOf(['run_agent', 'agent_handover'])
  type!: 'run_agent' | 'agent_handover';

  /** sId of the message the agent acted on. */
  @SidRef()
  originMessageId!: string;
}

/** Dust's per-message choice of model; accepted only as the mentioned agents' own model. */
export class ModelSelectionDto {
  /** @example openai */
  @Text({ max: 64 })
  providerId!: string;

  /** @example gpt-4o-mini */
  @Text({ max: 128 })
  modelId!: string;

  @OneOf(['none', 'light', 'medium', 'high'], { presence: 'optional' })
  reasoningEffort?: 'none' | 'light' | 'medium' | 'high';
}

export class EditMessageDto {
  /** @example "Summarise our refund policy in two lines." */
  @Text({ min: 1, max: CONTENT_MAX })
  content!: string;

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
  @Flag({ presence: 'optional' })
  blocking?: boolean;
}

/** The body of a post: a message and the content fragments that come before it. */
export class PostMessageWithFragmentsDto extends PostMessageDto {
  /** true: the tools of this message's runs run without waiting for approval (the poster's to give). */
  @Flag({ presence: 'optional' })
  skipToolsValidation?: boolean;

  /** Files or inline text put in the conversation just before the message. */
  @OptionalNestedList(() => ContentFragmentDto, FRAGMENTS_PER_REQUEST_MAX)
  contentFragments?: ContentFragmentDto[];
}

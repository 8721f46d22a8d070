import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { NestedObject } from 'src/platform/http/nested-input';
import type { TriggerConfigurationView } from 'src/modules/triggers/application/views/trigger.view';
import { SID_PATTERN, WorkspaceParams } from 'src/platform/http/route-params';
import {
  EXECUTIONS_PER_DAY_MAX,
  NAME_MAX,
  PROMPT_MAX,
  TriggerKind,
  TriggerStatus,
} from 'src/modules/triggers/domain/trigger';

/** Triggers one request may create, change or delete. */
export const TRIGGER_BATCH_MAX = 50;

class TriggerConfigurationDto implements TriggerConfigurationView {
  /** Schedules: `cron` (the default) or `interval`. */
  @IsOptional()
  @IsIn(['cron', 'interval'])
  type?: 'cron' | 'interval';

  /**
   * cron: 5 fields, firings at least 5 minutes apart
   * @example "0 9 * * 1-5"
   */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  cron?: string;

  /**
   * Schedules: an IANA time zone
   * @example Europe/Paris
   */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  /** interval: days between firings (a multiple of 7 with a dayOfWeek) */
  @IsOptional()
  @IsInt()
  intervalDays?: number;

  /** interval: 0 (Sunday) to 6, or null for every `intervalDays` days */
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  dayOfWeek?: number | null;

  /** interval: local hour, 0 to 23 */
  @IsOptional()
  @IsInt()
  hour?: number;

  /** interval: local minute, 0 to 59 */
  @IsOptional()
  @IsInt()
  minute?: number;

  /** webhook: give the agent the payload as a content fragment */
  @IsOptional()
  @IsBoolean()
  includePayload?: boolean;

  /**
   * webhook: fire only on this value of the sender's event header
   * @example pull_request
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  event?: string;

  /**
   * webhook: a condition on the payload (see the triggers guide)
   * @example $.action == "opened"
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(1_000)
  filter?: string;
}

export class TriggerDto {
  /** @example Morning digest */
  @IsString()
  @MinLength(1)
  @MaxLength(NAME_MAX)
  name!: string;

  @IsIn(['schedule', 'webhook'])
  kind!: TriggerKind;

  /**
   * The first message of each conversation the trigger opens, which mentions the agent
   * @example Summarise the open incidents.
   */
  @IsString()
  @MinLength(1)
  @MaxLength(PROMPT_MAX)
  customPrompt!: string;

  @NestedObject(() => TriggerConfigurationDto)
  configuration!: TriggerConfigurationDto;

  /** Default `enabled` */
  @IsOptional()
  @IsIn(['enabled', 'disabled'])
  status?: TriggerStatus;

  /** webhook: sId of the webhook source view it listens to */
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsString()
  @Matches(SID_PATTERN)
  webhookSourceViewSId?: string | null;

  /** webhook: firings a day (default 42) */
  @IsOptional()
  @ValidateIf((_, value) => value !== null)
  @IsInt()
  @Min(1)
  @Max(EXECUTIONS_PER_DAY_MAX)
  executionPerDayLimitOverride?: number | null;
}

export class TriggerPatchDto extends TriggerDto {
  /** sId of the trigger to change */
  @IsString()
  @Matches(SID_PATTERN)
  sId!: string;
}

export class CreateTriggersDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRIGGER_BATCH_MAX)
  @ValidateNested({ each: true })
  @Type(() => TriggerDto)
  triggers!: TriggerDto[];
}

export class UpdateTriggersDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRIGGER_BATCH_MAX)
  @ValidateNested({ each: true })
  @Type(() => TriggerPatchDto)
  triggers!: TriggerPatchDto[];
}

export class DeleteTriggersDto {
  /** sIds of the triggers to delete */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TRIGGER_BATCH_MAX)
  @Matches(SID_PATTERN, { each: true })
  triggerIds!: string[];
}

export class AgentTriggersParams extends WorkspaceParams {
  /**
   * sId of the agent configuration
   * @example Ag4tB7nM1q
   */
  @IsString()
  aId!: string;
}

export class TriggerParams extends AgentTriggersParams {
  /**
   * sId of the trigger
   * @example trg_Nc5Jd2Gh7r
   */
  @IsString()
  tId!: string;
}

import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Flag, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
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
  @OneOf(['cron', 'interval'], { presence: 'optional' })
  type?: 'cron' | 'interval';

  /**
   * cron: 5 fields, firings at least 5 minutes apart
   * @example "0 9 * * 1-5"
   */
  @Text({ max: 128, presence: 'optional' })
  cron?: string;

  /**
   * Schedules: an IANA time zone
   * @example Europe/Paris
   */
  @Text({ max: 64, presence: 'optional' })
  timezone?: string;

  /** interval: days between firings (a multiple of 7 with a dayOfWeek) */
  @Integer({ presence: 'optional' })
  intervalDays?: number;

  /** interval: 0 (Sunday) to 6, or null for every `intervalDays` days */
  @Integer({ presence: 'optional' })
  dayOfWeek?: number | null;

  /** interval: local hour, 0 to 23 */
  @Integer({ presence: 'optional' })
  hour?: number;

  /** interval: local minute, 0 to 59 */
  @Integer({ presence: 'optional' })
  minute?: number;

  /** webhook: give the agent the payload as a content fragment */
  @Flag({ presence: 'optional' })
  includePayload?: boolean;

  /**
   * webhook: fire only on this value of the sender's event header
   * @example pull_request
   */
  @Text({ min: 1, max: 128, presence: 'optional' })
  event?: string;

  /**
   * webhook: a condition on the payload (see the triggers guide)
   * @example $.action == "opened"
   */
  @Text({ min: 1, max: 1_000, presence: 'optional' })
  filter?: string;
}

export class TriggerDto {
  /** @example Morning digest */
  @Text({ min: 1, max: NAME_MAX })
  name!: string;

  @OneOf(['schedule', 'webhook'])
  kind!: TriggerKind;

  /**
   * The first message of each conversation the trigger opens, which mentions the agent
   * @example Summarise the open incidents.
   */
  @Text({ min: 1, max: PROMPT_MAX })
  customPrompt!: string;

  @NestedObject(() => TriggerConfigurationDto)
  configuration!: TriggerConfigurationDto;

  /** Default `enabled` */
  @OneOf(['enabled', 'disabled'], { presence: 'optional' })
  status?: TriggerStatus;

  /** webhook: sId of the webhook source view it listens to */
  @SidRef({ presence: 'optional' })
  webhookSourceViewSId?: string | null;

  /** webhook: firings a day (default 42) */
  @Integer({ min: 1, max: EXECUTIONS_PER_DAY_MAX, presence: 'optional' })
  executionPerDayLimitOverride?: number | null;
}

export class TriggerPatchDto extends TriggerDto {
  /** sId of the trigger to change */
  @SidRef()
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

import { IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { NestedObject } from 'src/platform/http/nested-input';
import { ConversationParams, SID_PATTERN } from 'src/platform/http/route-params';
import { CRON_MAX_FIRES, REASON_MAX } from 'src/modules/wakeups/domain/wakeup';

class ScheduleConfigDto {
  @IsIn(['one_shot', 'cron'])
  type!: 'one_shot' | 'cron';

  /** one_shot: when to fire, ms since the epoch (future, at most 31 days ahead) */
  @IsOptional()
  @IsInt()
  @Min(0)
  fireAt?: number;

  /**
   * cron: 5 fields, at least 5 minutes between firings, with a firing within the next 8 years (a
   * cron wake-up whose next firing is further away expires).
   * @example "0 9 * * 1-5"
   */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  cron?: string;

  /**
   * cron: IANA timezone
   * @example Europe/Paris
   */
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;
}

export class CreateWakeUpDto {
  /** sId of the agent to wake up */
  @IsString()
  @Matches(SID_PATTERN)
  agentConfigurationId!: string;

  @NestedObject(() => ScheduleConfigDto)
  scheduleConfig!: ScheduleConfigDto;

  /** Posted to the conversation when the wake-up fires */
  @IsString()
  @MinLength(1)
  @MaxLength(REASON_MAX)
  reason!: string;

  /** cron only; default 32 */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CRON_MAX_FIRES)
  maxFires?: number;
}

export class WakeUpParams extends ConversationParams {
  /**
   * sId of the wake-up (`wku_…`).
   * @example wku_Nc5Jd2Gh7r
   */
  @IsString()
  wuId!: string;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { ConversationParams, SID_PATTERN } from 'src/platform/http/route-params';
import { CRON_MAX_FIRES, REASON_MAX } from 'src/modules/wakeups/domain/wakeup';

class ScheduleConfigDto {
  @ApiProperty({ enum: ['one_shot', 'cron'] })
  @IsIn(['one_shot', 'cron'])
  type!: 'one_shot' | 'cron';

  @ApiPropertyOptional({
    description: 'one_shot: when to fire, ms since the epoch (future, at most 31 days ahead)',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  fireAt?: number;

  @ApiPropertyOptional({
    example: '0 9 * * 1-5',
    description:
      'cron: 5 fields, at least 5 minutes between firings, with a firing within the next 8 years ' +
      '(a cron wake-up whose next firing is further away expires).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  cron?: string;

  @ApiPropertyOptional({ example: 'Europe/Paris', description: 'cron: IANA timezone' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;
}

export class CreateWakeUpDto {
  @ApiProperty({ description: 'sId of the agent to wake up' })
  @IsString()
  @Matches(SID_PATTERN)
  agentConfigurationId!: string;

  @ApiProperty({ type: ScheduleConfigDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ScheduleConfigDto)
  scheduleConfig!: ScheduleConfigDto;

  @ApiProperty({ description: 'Posted to the conversation when the wake-up fires' })
  @IsString()
  @MinLength(1)
  @MaxLength(REASON_MAX)
  reason!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: CRON_MAX_FIRES, description: 'cron only; default 32' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(CRON_MAX_FIRES)
  maxFires?: number;
}

export class WakeUpParams extends ConversationParams {
  @ApiProperty({ description: 'sId of the wake-up (`wku_…`).', example: 'wku_Nc5Jd2Gh7r' })
  @IsString()
  wuId!: string;
}

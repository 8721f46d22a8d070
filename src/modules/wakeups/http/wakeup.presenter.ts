import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WakeUpDetails, presentWakeUpEvent } from 'src/modules/wakeups/application/wakeups.service';

class ScheduleConfigView {
  @ApiProperty({ enum: ['one_shot', 'cron'] }) type!: string;
  @ApiPropertyOptional({ description: 'one_shot: ms since the epoch' }) fireAt?: number;
  @ApiPropertyOptional() cron?: string;
  @ApiPropertyOptional() timezone?: string;
}

export class WakeUp {
  @ApiProperty() id!: number;
  @ApiProperty() sId!: string;
  @ApiProperty() createdAt!: number;
  @ApiProperty({ description: 'sId of the agent' }) agentConfigurationId!: string;
  @ApiProperty({ type: ScheduleConfigView }) scheduleConfig!: ScheduleConfigView;
  @ApiProperty() reason!: string;
  @ApiProperty({ enum: ['scheduled', 'fired', 'cancelled', 'expired'] }) status!: string;
  @ApiProperty() fireCount!: number;
  @ApiProperty() maxFires!: number;
  @ApiProperty({ description: 'sId of the conversation' }) conversationId!: string;
  @ApiProperty({ description: 'sId of the member who scheduled it' }) owner!: string;
}

export class WakeUpResponse {
  @ApiProperty({ type: WakeUp }) wakeUp!: WakeUp;
}

export class WakeUpsResponse {
  @ApiProperty({ type: [WakeUp] }) wakeUps!: WakeUp[];
}

export const presentWakeUp = (details: WakeUpDetails): WakeUp =>
  presentWakeUpEvent(details.wakeUp, details.conversationSId, details.ownerSId);

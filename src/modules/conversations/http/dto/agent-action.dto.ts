import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { SID_PATTERN } from 'src/platform/http/route-params';

export class ValidateActionDto {
  @ApiProperty({ description: 'sId of the action waiting for approval', example: 'act_4fQx9LmT2a' })
  @IsString()
  @MaxLength(64)
  @Matches(SID_PATTERN)
  actionId!: string;

  @ApiProperty({
    enum: ['approved', 'rejected'],
    description: 'Approved: the tool runs and the agent goes on. Rejected: the agent is told you declined.',
    example: 'approved',
  })
  @IsIn(['approved', 'rejected'])
  approved!: 'approved' | 'rejected';
}

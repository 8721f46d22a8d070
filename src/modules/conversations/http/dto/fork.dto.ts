import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { SID_PATTERN } from 'src/platform/http/route-params';

/** The body of a fork: where the new conversation branches off. */
export class ForkDto {
  @ApiProperty({ description: 'sId of the last message the fork keeps', example: 'Ms5bK2pW7e' })
  @IsString()
  @Matches(SID_PATTERN)
  sourceMessageId!: string;
}

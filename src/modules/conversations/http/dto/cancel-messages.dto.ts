import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, Matches } from 'class-validator';
import { SID_PATTERN } from 'src/platform/http/route-params';

/** Agent messages one cancel request may name: a turn mentions a few agents, never dozens. */
export const CANCEL_MESSAGE_IDS_MAX = 32;

/** Dust's body for cancelling generations: the agent messages to stop. */
export class CancelMessagesDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: CANCEL_MESSAGE_IDS_MAX,
    description: 'sIds of agent messages of the conversation.',
    example: ['Ms5bK2pW7e'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(CANCEL_MESSAGE_IDS_MAX)
  @IsString({ each: true })
  @Matches(SID_PATTERN, { each: true })
  messageIds!: string[];
}

export class CancelMessagesResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

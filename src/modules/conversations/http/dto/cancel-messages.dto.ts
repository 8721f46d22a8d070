import { ApiProperty } from '@nestjs/swagger';
import { List, SidRef } from 'src/platform/http/input-fields';

/** Agent messages one cancel request may name: a turn mentions a few agents, never dozens. */
export const CANCEL_MESSAGE_IDS_MAX = 32;

/** Dust's body for cancelling generations: the agent messages to stop. */
export class CancelMessagesDto {
  /**
   * sIds of agent messages of the conversation.
   * @example ["Ms5bK2pW7e"]
   */
  @List({ min: 1, max: CANCEL_MESSAGE_IDS_MAX })
  @SidRef({ each: true })
  messageIds!: string[];
}

export class CancelMessagesResponse {
  @ApiProperty({ enum: [true] }) success!: true;
}

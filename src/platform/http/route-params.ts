import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { WORKSPACE_PARAM_DESCRIPTION } from 'src/platform/auth/auth.decorators';

/** What an sId sent in a body may look like; anything else is refused before any lookup. */
export const SID_PATTERN = /^[A-Za-z0-9_]{1,40}$/;

/**
 * The route parameters several contexts share. A context's own routes extend them with the
 * parameters only it names (`fileId`, `wuId`, …).
 */
export class WorkspaceParams {
  @ApiProperty({ description: WORKSPACE_PARAM_DESCRIPTION, example: 'Wk7Qm2xL9p' })
  @IsString()
  wId!: string;
}

export class ConversationParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the conversation.', example: 'Cv3nR8tY1a' })
  @IsString()
  cId!: string;
}

export class MessageParams extends ConversationParams {
  @ApiProperty({ description: 'sId of the message.', example: 'Ms5bK2pW7e' })
  @IsString()
  mId!: string;
}

export class SpaceParams extends WorkspaceParams {
  @ApiProperty({ description: 'sId of the space.', example: 'vlt_Qh4sN9cX2m' })
  @IsString()
  spaceId!: string;
}

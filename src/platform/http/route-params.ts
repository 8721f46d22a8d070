import { IsString } from 'class-validator';

/** What an sId sent in a body may look like; anything else is refused before any lookup. */
export const SID_PATTERN = /^[A-Za-z0-9_]{1,40}$/;

/**
 * The route parameters several contexts share. A context's own routes extend them with the
 * parameters only it names (`fileId`, `wuId`, …).
 */
export class WorkspaceParams {
  @IsString()
  wId!: string;
}

export class ConversationParams extends WorkspaceParams {
  @IsString()
  cId!: string;
}

export class MessageParams extends ConversationParams {
  @IsString()
  mId!: string;
}

export class SpaceParams extends WorkspaceParams {
  @IsString()
  spaceId!: string;
}

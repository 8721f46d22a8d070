import { SidRef } from 'src/platform/http/input-fields';

/** The body of a fork: where the new conversation branches off. */
export class ForkDto {
  /**
   * sId of the last message the fork keeps
   * @example Ms5bK2pW7e
   */
  @SidRef()
  sourceMessageId!: string;
}

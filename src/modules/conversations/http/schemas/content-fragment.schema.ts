import { ApiProperty } from '@nestjs/swagger';
import type {
  ContentFragmentContextView,
  ContentFragmentView,
} from 'src/modules/conversations/application/views/content-fragment.view';

/** Dust's description of who added a fragment: not recorded here, so every field is null. */
export class ContentFragmentContextSchema implements ContentFragmentContextView {
  @ApiProperty({ type: String, nullable: true }) username!: null;
  @ApiProperty({ type: String, nullable: true }) fullName!: null;
  @ApiProperty({ type: String, nullable: true }) email!: null;
  @ApiProperty({ type: String, nullable: true }) profilePictureUrl!: null;
}

/** A file or inline text put in a conversation: a slot of the message list of its own. */
export class ContentFragment implements ContentFragmentView {
  type!: 'content_fragment';
  /** @example Xq3bT9kLmA */
  sId!: string;
  /** @example 42 */
  id!: number;
  /** @example 0 */
  rank!: number;
  /** @example 0 */
  version!: number;
  /** @example 1795413517290 */
  created!: number;
  /** @example "Q3 board deck.pdf" */
  title!: string;
  /** @example application/pdf */
  contentType!: string;
  /**
   * null for inline text
   * @example fil_8Kd02mXq1a
   */
  fileId!: string | null;
  /**
   * UTF-8 bytes of its text (0 for an image or audio file)
   * @example 18342
   */
  textBytes!: number;
  visibility!: 'visible';
  /**
   * Dust's id across versions: the sId
   * @example Xq3bT9kLmA
   */
  contentFragmentId!: string;
  /** A fragment has one version */
  contentFragmentVersion!: 'latest';
  /**
   * API path of its text (GET, readers of the conversation)
   * @example /api/w/Wk3xY8qPzL/assistant/conversations/Cv3nR8tY1a/content_fragments/Xq3bT9kLmA/text
   */
  textUrl!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null: no source URL is recorded' })
  sourceUrl!: null;
  context!: ContentFragmentContextSchema;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Always null: set by Dust for a fragment taken from a data source node',
  })
  contentNodeData!: null;
}

export class ContentFragmentResponse {
  contentFragment!: ContentFragment;
}

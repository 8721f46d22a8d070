import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { EmailAddress, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
import { NestedObject } from 'src/platform/http/nested-input';
import { ConversationParams } from 'src/platform/http/route-params';
import { MESSAGE_ORIGINS } from 'src/modules/conversations/domain/message';
import {
  FRAGMENT_TITLE_MAX,
  INLINE_CONTENT_MAX_BYTES,
  INLINE_CONTENT_TYPES,
} from 'src/modules/conversations/domain/content-fragment';

/** A data source document's id is at most this long (the data-sources context's bound). */
const DOCUMENT_NODE_ID_MAX = 512;

/** Who puts the fragment there, as Dust's clients describe them; every field optional. */
export class FragmentContextDto {
  /** @example ada */
  @Text({ max: 200, human: true, presence: 'optional' })
  username?: string | null;

  /** @example "Ada Lovelace" */
  @Text({ max: 200, human: true, presence: 'optional' })
  fullName?: string | null;

  /** @example ada@example.com */
  @EmailAddress({ presence: 'optional' })
  email?: string | null;

  @Text({ max: 2048, presence: 'optional' })
  profilePictureUrl?: string | null;

  // Dust's high-level client sends its whole message context here: checked, not kept with the fragment.
  @Text({ max: 64, presence: 'optional' })
  timezone?: string;

  @OneOf(MESSAGE_ORIGINS, { presence: 'optional' })
  origin?: string;
}

/**
 * A file (`fileId`), inline text (`content` with `contentType`) or a data source document
 * (`nodeId` with `nodeDataSourceViewId`): exactly one of the three.
 */
export class ContentFragmentDto {
  /** @example "Q3 board deck.pdf" */
  @Text({ min: 1, max: FRAGMENT_TITLE_MAX, human: true })
  title!: string;

  /**
   * A ready file of use case `conversation` of this workspace (not with content).
   * @example fil_8Kd02mXq1a
   */
  @SidRef({ presence: 'optional' })
  fileId?: string;

  @ApiPropertyOptional({
    example: 'Revenue grew 12% in Q3, driven by the EMEA region.',
    description: `Inline text, at most ${INLINE_CONTENT_MAX_BYTES} bytes (with contentType, not with fileId).`,
  })
  // Characters, a first bound; the byte limit is checked on the decoded text.
  @Text({ max: INLINE_CONTENT_MAX_BYTES, presence: 'optional' })
  content?: string;

  /** @example text/plain */
  @OneOf(INLINE_CONTENT_TYPES, { presence: 'optional' })
  contentType?: string;

  /**
   * A document's id in the data source of `nodeDataSourceViewId` (Dust's content node), which the caller reads through that view; its text is attached.
   * @example refund-policy
   */
  @Text({ min: 1, max: DOCUMENT_NODE_ID_MAX, presence: 'optional' })
  nodeId?: string;

  /**
   * A data source view of a space the caller can access (with nodeId).
   * @example dsv_Pq7Rw2Kx9M
   */
  @SidRef({ presence: 'optional' })
  nodeDataSourceViewId?: string;

  /**
   * Where the content comes from: kept as the fragment's `sourceUrl`, a link never fetched.
   * @example https://docs.example.com/q3-plan
   */
  @Text({ max: 2048, presence: 'optional' })
  url?: string | null;

  /** Who puts it there (Dust's `context`), shown as the fragment's `context`. */
  @IsOptional()
  @NestedObject(() => FragmentContextDto)
  context?: FragmentContextDto | null;
}

export class ContentFragmentParams extends ConversationParams {
  /**
   * sId of the content fragment.
   * @example Xq3bT9kLmA
   */
  @IsString()
  fragmentId!: string;
}

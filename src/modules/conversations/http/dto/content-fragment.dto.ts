import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { NestedObject } from 'src/platform/http/nested-input';
import { ConversationParams, SID_PATTERN } from 'src/platform/http/route-params';
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
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @HumanName()
  username?: string | null;

  /** @example "Ada Lovelace" */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  @HumanName()
  fullName?: string | null;

  /** @example ada@example.com */
  @IsOptional()
  @IsEmail()
  email?: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  profilePictureUrl?: string | null;

  // Dust's high-level client sends its whole message context here: checked, not kept with the fragment.
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional({ enum: MESSAGE_ORIGINS })
  @IsOptional()
  @IsIn(MESSAGE_ORIGINS)
  origin?: string;
}

/**
 * A file (`fileId`), inline text (`content` with `contentType`) or a data source document
 * (`nodeId` with `nodeDataSourceViewId`): exactly one of the three.
 */
export class ContentFragmentDto {
  @ApiProperty({ example: 'Q3 board deck.pdf', maxLength: FRAGMENT_TITLE_MAX })
  @IsString()
  @MinLength(1)
  @MaxLength(FRAGMENT_TITLE_MAX)
  @HumanName()
  title!: string;

  @ApiPropertyOptional({
    example: 'fil_8Kd02mXq1a',
    description: 'A ready file of use case `conversation` of this workspace (not with content).',
  })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  fileId?: string;

  @ApiPropertyOptional({
    example: 'Revenue grew 12% in Q3, driven by the EMEA region.',
    description: `Inline text, at most ${INLINE_CONTENT_MAX_BYTES} bytes (with contentType, not with fileId).`,
  })
  @IsOptional()
  @IsString()
  // Characters, a first bound; the byte limit is checked on the decoded text.
  @MaxLength(INLINE_CONTENT_MAX_BYTES)
  content?: string;

  @ApiPropertyOptional({ enum: INLINE_CONTENT_TYPES, example: 'text/plain' })
  @IsOptional()
  @IsIn(INLINE_CONTENT_TYPES)
  contentType?: string;

  @ApiPropertyOptional({
    example: 'refund-policy',
    description:
      "A document's id in the data source of `nodeDataSourceViewId` (Dust's content node), which the caller reads through that view; its text is attached.",
    maxLength: DOCUMENT_NODE_ID_MAX,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(DOCUMENT_NODE_ID_MAX)
  nodeId?: string;

  @ApiPropertyOptional({
    example: 'dsv_Pq7Rw2Kx9M',
    description: 'A data source view of a space the caller can access (with nodeId).',
  })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  nodeDataSourceViewId?: string;

  /**
   * Where the content comes from: kept as the fragment's `sourceUrl`, a link never fetched.
   * @example https://docs.example.com/q3-plan
   */
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  url?: string | null;

  /** Who puts it there (Dust's `context`), shown as the fragment's `context`. */
  @IsOptional()
  @NestedObject(() => FragmentContextDto)
  context?: FragmentContextDto | null;
}

export class ContentFragmentParams extends ConversationParams {
  @ApiProperty({ description: 'sId of the content fragment.', example: 'Xq3bT9kLmA' })
  @IsString()
  fragmentId!: string;
}

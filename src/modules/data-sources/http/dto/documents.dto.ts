import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsOptional,
  IsString,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Flag, Integer, OneOf, SidRef, Text } from 'src/platform/http/input-fields';
import { JSON_BODY_LIMIT_BYTES, JsonBodyLimit } from 'src/platform/http/json-body-parser';
import { SpaceParams } from 'src/platform/http/route-params';
import {
  DOCUMENT_ID_MAX,
  DOCUMENT_MIME_TYPE_MAX,
  DOCUMENT_SOURCE_URL_MAX,
  DOCUMENT_TAG_MAX,
  DOCUMENT_TITLE_MAX,
} from 'src/modules/data-sources/domain/document';
import { SEARCH_QUERY_MAX, TOP_K_MAX, TOP_K_MIN } from 'src/modules/data-sources/domain/document-search';
import { FilesConfig } from 'src/modules/files/files.api';

/** Lists are capped by the configured limits (400 naming them); this bound only keeps bodies small. */
const LIST_MAX = 1000;

/** An optional list of short labels (tags, parent ids). */
const LabelList = () =>
  applyDecorators(
    IsOptional(),
    IsArray(),
    ArrayMaxSize(LIST_MAX),
    Text({ max: DOCUMENT_TAG_MAX, each: true }),
  );

export class DataSourceParams extends SpaceParams {
  /**
   * sId of the data source (`dts_…`).
   * @example dts_Pq7Rw2Kx9M
   */
  @IsString()
  dsId!: string;
}

export class DocumentParams extends DataSourceParams {
  /**
   * The document's id, chosen by the caller at upsert (unique in the data source).
   * @example refund-policy
   */
  @Text({ max: DOCUMENT_ID_MAX })
  documentId!: string;
}

export class SectionDto {
  /** @example "## Refunds" */
  @ValidateIf((_, value) => value !== null)
  @IsString()
  prefix!: string | null;

  /** @example "Refunds are paid within 14 days." */
  @ValidateIf((_, value) => value !== null)
  @IsString()
  content!: string | null;

  /** Nested sections, read after the content. */
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => SectionDto)
  sections!: SectionDto[];
}

/**
 * The body limit of an upsert: the largest text JSON-escaped, at three bytes a byte of text (what
 * encoders that escape non-ASCII text as `\uXXXX` write for accented and Cyrillic letters, the
 * worst common case), and 1 MiB for the other fields.
 */
export function documentBodyLimit(maxTextBytes: number): number {
  return 3 * maxTextBytes + JSON_BODY_LIMIT_BYTES;
}

@JsonBodyLimit(FilesConfig, (files) => documentBodyLimit(files.documentMaxTextBytes))
export class UpsertDocumentDto {
  /** @example "Refund policy" */
  @Text({ max: DOCUMENT_TITLE_MAX, human: true, presence: 'optional' })
  title?: string | null;

  /**
   * The text of the document; give one of `text`, `section` or `fileId`.
   * @example "Customers may ask for a refund within 30 days of purchase."
   */
  @IsOptional()
  @IsString()
  text?: string | null;

  /**
   * A ready file of use case `upsert_document` of this workspace: its extracted text is the document
   * (instead of `text` or `section`); its name and type fill `title` and `mime_type` when they are
   * not given.
   * @example fil_9kQ2mX7vLp
   */
  @SidRef({ presence: 'optional' })
  fileId?: string | null;

  /** Structured text instead of `text`. */
  @IsOptional()
  @ValidateNested()
  @Type(() => SectionDto)
  section?: SectionDto | null;

  /** @example https://intranet.example.com/policies/refunds */
  @Text({ max: DOCUMENT_SOURCE_URL_MAX, presence: 'optional' })
  source_url?: string | null;

  /** @example ["policy", "billing"] */
  @LabelList()
  tags?: string[] | null;

  /**
   * The document and its ancestors, the document first (added when missing); views match them with
   * `parentsIn`.
   * @example ["refund-policy", "policies"]
   */
  @LabelList()
  parents?: string[] | null;

  /** @example text/markdown */
  @Text({ max: DOCUMENT_MIME_TYPE_MAX, presence: 'optional' })
  mime_type?: string | null;

  /**
   * The document's date in ms since the epoch; defaults to the upsert's time.
   * @example 1763856000000
   */
  @Integer({ min: 0, presence: 'optional' })
  timestamp?: number | null;

  /** Answer without the text (and with an empty `chunks`). */
  @Flag({ presence: 'optional' })
  light_document_output?: boolean;
}

export class SearchQuery {
  /** @example "refund within 30 days" */
  // Plain validators: a composite's ApiProperty would list this parameter before the others.
  @IsString()
  @MaxLength(SEARCH_QUERY_MAX)
  query!: string;

  /** Chunks to return. */
  @ApiPropertyOptional({ minimum: TOP_K_MIN, maximum: TOP_K_MAX, default: 10 })
  @Type(() => Number)
  @Integer({ presence: 'optional' })
  top_k?: number;

  /** `true`: each document found comes with its whole text (Dust's `full_text`). */
  @ApiPropertyOptional({ default: 'false' })
  @OneOf(['true', 'false'], { presence: 'optional' })
  full_text?: 'true' | 'false';
}

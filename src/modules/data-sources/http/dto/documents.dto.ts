import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
  Matches,
} from 'class-validator';
import { HumanName } from 'src/platform/http/human-name';
import { JSON_BODY_LIMIT_BYTES, JsonBodyLimit } from 'src/platform/http/json-body-parser';
import { SID_PATTERN, SpaceParams } from 'src/platform/http/route-params';
import {
  DOCUMENT_ID_MAX,
  DOCUMENT_MIME_TYPE_MAX,
  DOCUMENT_SOURCE_URL_MAX,
  DOCUMENT_TAG_MAX,
  DOCUMENT_TITLE_MAX,
} from 'src/modules/data-sources/domain/document';
import { SEARCH_QUERY_MAX, TOP_K_MAX, TOP_K_MIN } from 'src/modules/data-sources/domain/document-search';
import { FilesConfig } from 'src/modules/files/files.config';

/** Lists are capped by the configured limits (400 naming them); this bound only keeps bodies small. */
const LIST_MAX = 1000;

export class DataSourceParams extends SpaceParams {
  @ApiProperty({ description: 'sId of the data source (`dts_…`).', example: 'dts_Pq7Rw2Kx9M' })
  @IsString()
  dsId!: string;
}

export class DocumentParams extends DataSourceParams {
  @ApiProperty({
    description: "The document's id, chosen by the caller at upsert (unique in the data source).",
    example: 'refund-policy',
    maxLength: DOCUMENT_ID_MAX,
  })
  @IsString()
  @MaxLength(DOCUMENT_ID_MAX)
  documentId!: string;
}

export class SectionDto {
  @ApiProperty({ type: String, nullable: true, example: '## Refunds' })
  @ValidateIf((_, value) => value !== null)
  @IsString()
  prefix!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'Refunds are paid within 14 days.' })
  @ValidateIf((_, value) => value !== null)
  @IsString()
  content!: string | null;

  @ApiProperty({ type: () => [SectionDto], description: 'Nested sections, read after the content.' })
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
  @ApiPropertyOptional({
    type: String,
    example: 'Refund policy',
    maxLength: DOCUMENT_TITLE_MAX,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(DOCUMENT_TITLE_MAX)
  @HumanName()
  title?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'Customers may ask for a refund within 30 days of purchase.',
    nullable: true,
    description: 'The text of the document; give one of `text`, `section` or `fileId`.',
  })
  @IsOptional()
  @IsString()
  text?: string | null;

  @ApiPropertyOptional({
    type: String,
    example: 'fil_9kQ2mX7vLp',
    nullable: true,
    description:
      'A ready file of use case `upsert_document` of this workspace: its extracted text is the document (instead of `text` or `section`); its name and type fill `title` and `mime_type` when they are not given.',
  })
  @IsOptional()
  @IsString()
  @Matches(SID_PATTERN)
  fileId?: string | null;

  @ApiPropertyOptional({
    type: SectionDto,
    nullable: true,
    description: 'Structured text instead of `text`.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => SectionDto)
  section?: SectionDto | null;

  @ApiPropertyOptional({
    type: String,
    example: 'https://intranet.example.com/policies/refunds',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(DOCUMENT_SOURCE_URL_MAX)
  source_url?: string | null;

  @ApiPropertyOptional({ type: [String], example: ['policy', 'billing'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @MaxLength(DOCUMENT_TAG_MAX, { each: true })
  tags?: string[] | null;

  @ApiPropertyOptional({
    type: [String],
    example: ['refund-policy', 'policies'],
    description:
      'The document and its ancestors, the document first (added when missing); views match them with `parentsIn`.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(LIST_MAX)
  @IsString({ each: true })
  @MaxLength(DOCUMENT_TAG_MAX, { each: true })
  parents?: string[] | null;

  @ApiPropertyOptional({
    type: String,
    example: 'text/markdown',
    maxLength: DOCUMENT_MIME_TYPE_MAX,
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MaxLength(DOCUMENT_MIME_TYPE_MAX)
  mime_type?: string | null;

  @ApiPropertyOptional({
    type: Number,
    example: 1763856000000,
    nullable: true,
    description: "The document's date in ms since the epoch; defaults to the upsert's time.",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  timestamp?: number | null;

  @ApiPropertyOptional({ description: 'Answer without the text (and with an empty `chunks`).' })
  @IsOptional()
  @IsBoolean()
  light_document_output?: boolean;
}

export class SearchQuery {
  @ApiProperty({ example: 'refund within 30 days', maxLength: SEARCH_QUERY_MAX })
  @IsString()
  @MaxLength(SEARCH_QUERY_MAX)
  query!: string;

  @ApiPropertyOptional({
    minimum: TOP_K_MIN,
    maximum: TOP_K_MAX,
    default: 10,
    description: 'Chunks to return.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  top_k?: number;
}

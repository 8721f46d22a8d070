import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  DocumentChunkJson,
  DocumentJson,
  DocumentSummaryJson,
  ListedDocumentJson,
  SearchChunkJson,
  SearchDocumentJson,
} from 'src/modules/data-sources/application/views/document.view';
import { CreatedDataSourceSchema } from 'src/modules/data-sources/http/schemas/data-source.schema';

@ApiSchema({ name: 'DataSourceDocumentSummary' })
export class DocumentSummarySchema implements DocumentSummaryJson {
  /**
   * sId of the data source.
   * @example dts_3fZ0aBcDeF
   */
  data_source_id!: string;
  /** ms since the epoch */
  created!: number;
  /** @example refund-policy */
  document_id!: string;
  /** The document's date, ms since the epoch. */
  timestamp!: number;
  /** @example "Refund policy" */
  title!: string;
  /** @example ["policy"] */
  tags!: string[];
  /** @example ["refund-policy", "policies"] */
  parents!: string[];
  /** @example https://intranet.example.com/policies/refunds */
  source_url!: string | null;
  /** SHA-256 of the text, hex. */
  hash!: string;
  @ApiProperty({ type: 'integer', description: 'UTF-8 bytes of the text.' }) text_size!: number;
  @ApiProperty({ type: 'integer' }) chunk_count!: number;
  /** @example text/markdown */
  mime_type!: string;
}

@ApiSchema({ name: 'DataSourceDocumentChunk' })
export class DocumentChunkSchema implements DocumentChunkJson {
  text!: string;
  @ApiProperty({ type: 'integer', description: 'Character offset in the text.' }) offset!: number;
}

@ApiSchema({ name: 'DataSourceDocument' })
export class DocumentSchema extends DocumentSummarySchema implements DocumentJson {
  /** null in a light answer. */
  text!: string | null;
  /** Always empty: chunks are what search returns. */
  chunks!: DocumentChunkSchema[];
}

export class DocumentResponse {
  document!: DocumentSchema;
}

export class UpsertedDocumentResponse extends DocumentResponse {
  data_source!: CreatedDataSourceSchema;
}

export class DeletedDocumentResponse {
  @ApiProperty({ type: Object, example: { document_id: 'refund-policy' } })
  document!: { document_id: string };
}

@ApiSchema({ name: 'ListedDataSourceDocument' })
export class ListedDocumentSchema extends DocumentSummarySchema implements ListedDocumentJson {
  /** Always empty: chunks are what search returns. */
  chunks!: DocumentChunkSchema[];
}

export class DocumentsResponse {
  /** Oldest first, without their text. */
  documents!: ListedDocumentSchema[];
  nextCursor!: string | null;
  /**
   * How many documents the data source holds, all pages together (Dust's `total`).
   * @example 42
   */
  total!: number;
}

@ApiSchema({ name: 'SearchChunk' })
export class SearchChunkSchema implements SearchChunkJson {
  /** @example "Customers may ask for a refund within 30 days of purchase." */
  text!: string;
  /**
   * SHA-256 of the chunk's text (UTF-8), hex.
   * @example 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
   */
  hash!: string;
  @ApiProperty({ type: 'integer' }) offset!: number;
  /** @example 0.1 */
  score!: number;
}

@ApiSchema({ name: 'SearchDocument' })
export class SearchDocumentSchema extends DocumentSummarySchema implements SearchDocumentJson {
  /**
   * Its direct parent (the second of `parents`); null for a document at the top.
   * @example policies
   */
  parent_id!: string | null;
  /** Its whole text with `full_text=true`; null otherwise. */
  text!: string | null;
  /**
   * The score of its best chunk.
   * @example 0.1
   */
  score!: number;
  chunks!: SearchChunkSchema[];
}

export class SearchResponse {
  /** Best first. */
  documents!: SearchDocumentSchema[];
}

import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { ViewSearchResult } from 'src/modules/data-sources/application/document-search.service';
import type { DocumentSummary } from 'src/modules/data-sources/application/ports/document.repository';
import { CreatedDataSourceJson } from 'src/modules/data-sources/application/views/data-source.view';
import type { DataSourceDocument } from 'src/modules/data-sources/domain/document';

/** A document of a data source without its text, with Dust's snake_case keys. */
export class DocumentSummaryJson {
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
export class DocumentChunkJson {
  text!: string;
  @ApiProperty({ type: 'integer', description: 'Character offset in the text.' }) offset!: number;
}

@ApiSchema({ name: 'DataSourceDocument' })
export class DocumentJson extends DocumentSummaryJson {
  /** null in a light answer. */
  text!: string | null;
  /** Always empty: chunks are what search returns. */
  chunks!: DocumentChunkJson[];
}

export class DocumentResponse {
  document!: DocumentJson;
}

export class UpsertedDocumentResponse extends DocumentResponse {
  data_source!: CreatedDataSourceJson;
}

export class DeletedDocumentResponse {
  @ApiProperty({ type: Object, example: { document_id: 'refund-policy' } })
  document!: { document_id: string };
}

/** A document in a list: Dust's document with no chunks, which only a search returns. */
@ApiSchema({ name: 'ListedDataSourceDocument' })
export class ListedDocumentJson extends DocumentSummaryJson {
  /** Always empty: chunks are what search returns. */
  chunks!: DocumentChunkJson[];
}

export class DocumentsResponse {
  /** Oldest first, without their text. */
  documents!: ListedDocumentJson[];
  nextCursor!: string | null;
  /**
   * How many documents the data source holds, all pages together (Dust's `total`).
   * @example 42
   */
  total!: number;
}

@ApiSchema({ name: 'SearchChunk' })
export class SearchChunkJson {
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

/** A document that matched a search (Dust's `CoreAPIDocument`), with its best chunks. */
@ApiSchema({ name: 'SearchDocument' })
export class SearchDocumentJson extends DocumentSummaryJson {
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
  chunks!: SearchChunkJson[];
}

export class SearchResponse {
  /** Best first. */
  documents!: SearchDocumentJson[];
}

export const renderDocumentSummary = (
  dataSourceSId: string,
  document: DocumentSummary,
): DocumentSummaryJson => ({
  data_source_id: dataSourceSId,
  created: document.createdAt.getTime(),
  document_id: document.documentId,
  timestamp: document.timestamp,
  title: document.title,
  tags: document.tags,
  parents: document.parents,
  source_url: document.sourceUrl,
  hash: document.hash,
  text_size: document.textBytes,
  chunk_count: document.chunkCount,
  mime_type: document.mimeType,
});

/** A `light` answer leaves the text out. */
export const renderDocument = (
  dataSourceSId: string,
  document: DataSourceDocument,
  light = false,
): DocumentJson => ({
  ...renderDocumentSummary(dataSourceSId, document),
  text: light ? null : document.text,
  chunks: [],
});

export const renderListedDocument = (
  dataSourceSId: string,
  document: DocumentSummary,
): ListedDocumentJson => ({
  ...renderDocumentSummary(dataSourceSId, document),
  chunks: [],
});

export const renderSearchResult = ({ dataSourceSId, documents }: ViewSearchResult): SearchDocumentJson[] =>
  documents.map(({ hit, document, text }) => ({
    ...renderDocumentSummary(dataSourceSId, document),
    // A document's parents list its own id first, then its ancestors.
    parent_id: document.parents[1] ?? null,
    score: hit.score,
    chunks: hit.chunks,
    text,
  }));

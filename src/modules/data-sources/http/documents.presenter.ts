import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type {
  DataSourceDocument,
  DocumentSummary,
} from 'src/modules/data-sources/application/documents.service';
import type { DocumentHit } from 'src/modules/data-sources/application/document-search.service';
import { CreatedDataSourceJson } from 'src/modules/data-sources/http/data-sources.presenter';

@ApiSchema({ name: 'DataSourceDocumentSummary' })
export class DocumentSummaryJson {
  @ApiProperty({ example: 'dts_3fZ0aBcDeF', description: 'sId of the data source.' }) data_source_id!: string;
  @ApiProperty({ description: 'ms since the epoch' }) created!: number;
  @ApiProperty({ example: 'refund-policy' }) document_id!: string;
  @ApiProperty({ description: "The document's date, ms since the epoch." }) timestamp!: number;
  @ApiProperty({ example: 'Refund policy' }) title!: string;
  @ApiProperty({ type: [String], example: ['policy'] }) tags!: string[];
  @ApiProperty({ type: [String], example: ['refund-policy', 'policies'] }) parents!: string[];
  @ApiProperty({ type: String, nullable: true, example: 'https://intranet.example.com/policies/refunds' })
  source_url!: string | null;
  @ApiProperty({ description: 'SHA-256 of the text, hex.' }) hash!: string;
  @ApiProperty({ type: 'integer', description: 'UTF-8 bytes of the text.' }) text_size!: number;
  @ApiProperty({ type: 'integer' }) chunk_count!: number;
  @ApiProperty({ example: 'text/markdown' }) mime_type!: string;
}

@ApiSchema({ name: 'DataSourceDocumentChunk' })
export class DocumentChunkJson {
  @ApiProperty() text!: string;
  @ApiProperty({ type: 'integer', description: 'Character offset in the text.' }) offset!: number;
}

@ApiSchema({ name: 'DataSourceDocument' })
export class DocumentJson extends DocumentSummaryJson {
  @ApiProperty({ type: String, nullable: true, description: 'null in a light answer.' }) text!: string | null;
  @ApiProperty({ type: [DocumentChunkJson], description: 'Always empty: chunks are what search returns.' })
  chunks!: DocumentChunkJson[];
}

export class DocumentResponse {
  @ApiProperty({ type: DocumentJson }) document!: DocumentJson;
}

export class UpsertedDocumentResponse extends DocumentResponse {
  @ApiProperty({ type: CreatedDataSourceJson }) data_source!: CreatedDataSourceJson;
}

export class DeletedDocumentResponse {
  @ApiProperty({ example: { document_id: 'refund-policy' } }) document!: { document_id: string };
}

export class DocumentsResponse {
  @ApiProperty({ type: [DocumentSummaryJson], description: 'Oldest first, without their text.' })
  documents!: DocumentSummaryJson[];
  @ApiProperty({ type: String, nullable: true }) nextCursor!: string | null;
}

@ApiSchema({ name: 'SearchChunk' })
export class SearchChunkJson {
  @ApiProperty({ example: 'Customers may ask for a refund within 30 days of purchase.' }) text!: string;
  @ApiProperty({ type: 'integer' }) offset!: number;
  @ApiProperty({ example: 0.1 }) score!: number;
}

@ApiSchema({ name: 'SearchDocument' })
export class SearchDocumentJson {
  @ApiProperty({ example: 'refund-policy' }) document_id!: string;
  @ApiProperty({ example: 'Refund policy' }) title!: string;
  @ApiProperty({ type: String, nullable: true, example: 'https://intranet.example.com/policies/refunds' })
  source_url!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ example: 0.1, description: 'The score of its best chunk.' }) score!: number;
  @ApiProperty({ type: [SearchChunkJson] }) chunks!: SearchChunkJson[];
}

export class SearchResponse {
  @ApiProperty({ type: [SearchDocumentJson], description: 'Best first.' }) documents!: SearchDocumentJson[];
}

export const presentDocumentSummary = (
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

export const presentDocument = (
  dataSourceSId: string,
  document: DataSourceDocument,
  light = false,
): DocumentJson => ({
  ...presentDocumentSummary(dataSourceSId, document),
  text: light ? null : document.text,
  chunks: [],
});

export const presentSearchDocument = (hit: DocumentHit): SearchDocumentJson => ({
  document_id: hit.documentId,
  title: hit.title,
  source_url: hit.sourceUrl,
  tags: hit.tags,
  score: hit.score,
  chunks: hit.chunks,
});

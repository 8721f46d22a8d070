import type {
  DataSourceDocument,
  DocumentSummary,
} from 'src/modules/data-sources/application/documents.service';
import type { DocumentHit } from 'src/modules/data-sources/application/document-search.service';
import type {
  DocumentJson,
  DocumentSummaryJson,
  SearchDocumentJson,
} from 'src/modules/data-sources/application/views/document.view';

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

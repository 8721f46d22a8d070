import type { DocumentSummary } from 'src/modules/data-sources/application/ports/document.repository';
import type { DataSourceDocument } from 'src/modules/data-sources/domain/document';
import type { ViewSearchResult } from 'src/modules/data-sources/application/document-search.service';
import type {
  DocumentJson,
  DocumentSummaryJson,
  ListedDocumentJson,
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

export const presentListedDocument = (
  dataSourceSId: string,
  document: DocumentSummary,
): ListedDocumentJson => ({ ...presentDocumentSummary(dataSourceSId, document), chunks: [] });

export const presentSearchResult = ({ dataSourceSId, documents }: ViewSearchResult): SearchDocumentJson[] =>
  documents.map(({ hit, document, text }) => ({
    ...presentDocumentSummary(dataSourceSId, document),
    // A document's parents list its own id first, then its ancestors.
    parent_id: document.parents[1] ?? null,
    score: hit.score,
    chunks: hit.chunks,
    text,
  }));

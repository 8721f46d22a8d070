import type { DocumentScope } from 'src/modules/data-sources/application/ports/document.repository';
import type { DocumentChunk } from 'src/modules/data-sources/domain/document';
import type { ChunkHit } from 'src/modules/data-sources/domain/document-search';

/** A scope of documents and the text-search configuration of its data source. */
export interface SearchTarget extends DocumentScope {
  textSearchConfig: string;
}

/** The scope of one view, with its data source's sId (what a view's search answers name). */
export interface ViewSearchTarget extends SearchTarget {
  dataSourceSId: string;
}

/**
 * Port: the search index of document chunks. Full-text search on PostgreSQL today; a vector index
 * (embeddings through a provider) can implement it later. Writes join the current transaction, so
 * a document and its index entries change together.
 */
export abstract class DocumentIndex {
  /** Replaces the index entries of a document with these chunks. */
  abstract index(
    workspaceId: number,
    document: { id: number; dataSourceId: number },
    textSearchConfig: string,
    chunks: DocumentChunk[],
  ): Promise<void>;
  /** The best chunks of the target for the query, best first, at most `limit`. */
  abstract search(
    workspaceId: number,
    target: SearchTarget,
    query: string,
    limit: number,
  ): Promise<ChunkHit[]>;
}

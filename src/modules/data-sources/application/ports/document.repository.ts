import type { DataSourceDocument, ValidDocument } from 'src/modules/data-sources/domain/document';

/** A document as written: its validated fields and what the service derived from its text. */
export interface DocumentToStore extends ValidDocument {
  hash: string;
  chunkCount: number;
}

/** A document without its text: what lists carry. */
export type DocumentSummary = Omit<DataSourceDocument, 'text'>;

/** Part of a data source: all of it when `parentsIn` is null, else the documents under those nodes. */
export interface DocumentScope {
  dataSourceId: number;
  parentsIn: string[] | null;
}

/**
 * Port: the documents of data sources. Every query takes the workspace id; a row of another
 * workspace is never found. Deleting a document deletes its chunks with it.
 */
export abstract class DocumentRepository {
  /**
   * Inserts or replaces the document of that id; `created` when it is new. A new document is
   * counted in its data source unless it holds `maxDocuments` already: then `withinLimit` is false
   * and the caller rolls back. Exact however many transactions create at once: what a creation
   * counts on stays locked until its transaction ends.
   */
  abstract upsert(
    workspaceId: number,
    dataSourceId: number,
    document: DocumentToStore,
    maxDocuments: number,
  ): Promise<{ document: DataSourceDocument; created: boolean; withinLimit: boolean }>;
  abstract find(
    workspaceId: number,
    dataSourceId: number,
    documentId: string,
  ): Promise<DataSourceDocument | null>;
  /** Documents by row id, after `afterId`, at most `limit`. */
  abstract list(
    workspaceId: number,
    dataSourceId: number,
    page: { afterId: number; limit: number },
  ): Promise<DocumentSummary[]>;
  /** The documents of these ids in the data source (those that exist), without their text. */
  abstract findSummaries(
    workspaceId: number,
    dataSourceId: number,
    documentIds: string[],
  ): Promise<DocumentSummary[]>;
  /** The texts of the documents of these ids in the data source, by document id. */
  abstract findTexts(
    workspaceId: number,
    dataSourceId: number,
    documentIds: string[],
  ): Promise<Map<string, string>>;
  /** How many documents the data source holds, from its counter rows (no scan of the documents). */
  abstract count(workspaceId: number, dataSourceId: number): Promise<number>;
  /** False when it was already gone; the data source counts one document less. */
  abstract delete(workspaceId: number, dataSourceId: number, documentId: string): Promise<boolean>;
  /** The most recent documents (by their timestamp) of the scopes, newest first. */
  abstract recent(workspaceId: number, scopes: DocumentScope[], limit: number): Promise<DataSourceDocument[]>;
}

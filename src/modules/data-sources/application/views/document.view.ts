/** A document of a data source without its text, with Dust's snake_case keys. */
export interface DocumentSummaryJson {
  data_source_id: string;
  created: number;
  document_id: string;
  timestamp: number;
  title: string;
  tags: string[];
  parents: string[];
  source_url: string | null;
  hash: string;
  text_size: number;
  chunk_count: number;
  mime_type: string;
}

export interface DocumentChunkJson {
  text: string;
  offset: number;
}

/** A document in a list: Dust's document with no chunks, which only a search returns. */
export interface ListedDocumentJson extends DocumentSummaryJson {
  chunks: DocumentChunkJson[];
}

export interface DocumentJson extends DocumentSummaryJson {
  text: string | null;
  chunks: DocumentChunkJson[];
}

export interface SearchChunkJson {
  text: string;
  /** SHA-256 of the chunk's text, hex. */
  hash: string;
  offset: number;
  score: number;
}

/** A document that matched a search (Dust's `CoreAPIDocument`), with its best chunks. */
export interface SearchDocumentJson extends DocumentSummaryJson {
  /** Its direct parent: the first of its ancestors, null for a document at the top. */
  parent_id: string | null;
  score: number;
  chunks: SearchChunkJson[];
  /** Its whole text with `full_text=true`, else null. */
  text: string | null;
}

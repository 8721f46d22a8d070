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

export interface DocumentJson extends DocumentSummaryJson {
  text: string | null;
  chunks: DocumentChunkJson[];
}

export interface SearchChunkJson {
  text: string;
  offset: number;
  score: number;
}

/** A document that matched a search, with its best chunks. */
export interface SearchDocumentJson {
  document_id: string;
  title: string;
  source_url: string | null;
  tags: string[];
  score: number;
  chunks: SearchChunkJson[];
}

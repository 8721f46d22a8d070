import { InvalidRequestError } from 'src/platform/errors/domain-error';

export const SEARCH_QUERY_MAX = 1000;
export const TOP_K_MIN = 1;
export const TOP_K_MAX = 64;

/** A chunk that matched a query, with what a citation needs of its document. */
export interface ChunkHit {
  dataSourceId: number;
  documentId: string;
  title: string;
  sourceUrl: string | null;
  tags: string[];
  /** The document's id and ancestors, which a view's `parentsIn` matches. */
  parents: string[];
  text: string;
  /** SHA-256 of the chunk's text (UTF-8), hex. */
  chunkHash: string;
  offset: number;
  score: number;
}

export interface DocumentHit {
  dataSourceId: number;
  documentId: string;
  title: string;
  sourceUrl: string | null;
  tags: string[];
  parents: string[];
  /** The score of its best chunk. */
  score: number;
  chunks: { text: string; hash: string; offset: number; score: number }[];
}

/**
 * UTF-8 bytes of document text one `full_text` search may answer: the largest document the
 * service may be configured to hold, so any single one can be read in full.
 */
export const FULL_TEXT_ANSWER_MAX_BYTES = 16 * 1024 * 1024;

/** A `full_text` answer stays within its budget, or the caller is told how to narrow it. */
export function checkFullTextAnswer(documents: readonly { textBytes: number }[]): void {
  const bytes = documents.reduce((sum, document) => sum + document.textBytes, 0);
  if (bytes > FULL_TEXT_ANSWER_MAX_BYTES) {
    throw new InvalidRequestError(
      `full_text: the ${documents.length} documents found hold ${bytes} bytes of text, above the ${FULL_TEXT_ANSWER_MAX_BYTES} a search answers in full; lower top_k or read the documents one by one.`,
    );
  }
}

export function checkSearchQuery(query: string | undefined): string {
  const trimmed = (query ?? '').trim();
  if (trimmed.length === 0 || trimmed.length > SEARCH_QUERY_MAX) {
    throw new InvalidRequestError(`query: must be 1 to ${SEARCH_QUERY_MAX} characters, not blank.`);
  }
  return trimmed;
}

export function checkTopK(topK: number): number {
  if (!Number.isInteger(topK) || topK < TOP_K_MIN || topK > TOP_K_MAX) {
    throw new InvalidRequestError(`top_k: must be an integer from ${TOP_K_MIN} to ${TOP_K_MAX}.`);
  }
  return topK;
}

/**
 * The best `topK` chunks of all hits, grouped by document: documents best first (by their best
 * chunk), each document's chunks best first.
 */
export function groupHits(hits: ChunkHit[], topK: number): DocumentHit[] {
  const best = [...hits].sort((a, b) => b.score - a.score).slice(0, topK);
  const documents = new Map<string, DocumentHit>();
  for (const hit of best) {
    const key = `${hit.dataSourceId}/${hit.documentId}`;
    let document = documents.get(key);
    if (!document) {
      document = {
        dataSourceId: hit.dataSourceId,
        documentId: hit.documentId,
        title: hit.title,
        sourceUrl: hit.sourceUrl,
        tags: hit.tags,
        parents: hit.parents,
        score: hit.score,
        chunks: [],
      };
      documents.set(key, document);
    }
    document.chunks.push({ text: hit.text, hash: hit.chunkHash, offset: hit.offset, score: hit.score });
  }
  return [...documents.values()];
}

/** A view a caller reads documents through, and whether every member of the workspace can read its space. */
export interface ReachingView {
  dataSourceId: number;
  parentsIn: string[] | null;
  spaceSId: string;
  openToAll: boolean;
}

/**
 * The restricted spaces that what these documents say belongs to: none for a document that a view
 * of a space open to all shows; else every restricted space whose view shows it (a reader must
 * access all of them, which never lets through someone who could not read the document).
 */
export function restrictedSpacesOf(
  documents: readonly { dataSourceId: number; parents: readonly string[] }[],
  views: readonly ReachingView[],
): string[] {
  const spaces = new Set<string>();
  for (const document of documents) {
    const showing = views.filter(
      (view) =>
        view.dataSourceId === document.dataSourceId &&
        (view.parentsIn === null || view.parentsIn.some((parent) => document.parents.includes(parent))),
    );
    if (showing.some((view) => view.openToAll)) continue;
    for (const view of showing) spaces.add(view.spaceSId);
  }
  return [...spaces].sort();
}

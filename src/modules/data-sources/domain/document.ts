import { InvalidRequestError } from 'src/platform/errors/domain-error';

export const DOCUMENT_ID_MAX = 512;
export const DOCUMENT_TITLE_MAX = 512;
export const DOCUMENT_SOURCE_URL_MAX = 2048;
export const DOCUMENT_TAG_MAX = 512;
export const DOCUMENT_MIME_TYPE_MAX = 128;
/** Words per chunk and words shared by consecutive chunks, so a phrase cut at a boundary is still found. */
export const CHUNK_WORDS = 256;
export const CHUNK_OVERLAP_WORDS = 32;

/** The configurable limits of the documents of a data source. */
export interface DocumentLimits {
  maxTextBytes: number;
  maxPerDataSource: number;
  maxTags: number;
  maxParents: number;
}

/** Structured text: a prefix (a heading), its content, and nested sections, read in order. */
export interface DocumentSection {
  prefix: string | null;
  content: string | null;
  sections: DocumentSection[];
}

export interface DocumentInput {
  title?: string | null;
  text?: string | null;
  section?: DocumentSection | null;
  /** A file whose extracted text is the document (resolved to `text` before the checks). */
  fileId?: string | null;
  sourceUrl?: string | null;
  tags?: string[] | null;
  parents?: string[] | null;
  mimeType?: string | null;
  timestamp?: number | null;
}

/** A document as it is stored, its text whole; its chunks are what search ranks. */
export interface ValidDocument {
  documentId: string;
  title: string;
  text: string;
  textBytes: number;
  sourceUrl: string | null;
  tags: string[];
  /** The document's own id first, then its ancestors: what a view's `parentsIn` matches. */
  parents: string[];
  mimeType: string;
  timestamp: number;
}

export interface DataSourceDocument extends ValidDocument {
  id: number;
  dataSourceId: number;
  hash: string;
  chunkCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface DocumentChunk {
  index: number;
  /** Character offset of the chunk in the document's text. */
  offset: number;
  text: string;
}

export function checkDocumentId(documentId: string): string {
  if (documentId.trim().length === 0 || documentId.length > DOCUMENT_ID_MAX) {
    throw new InvalidRequestError(`documentId: must be 1 to ${DOCUMENT_ID_MAX} characters.`);
  }
  return documentId;
}

/** The text of a section tree, depth first: each prefix then its content, one per line. */
export function sectionText(section: DocumentSection): string {
  const parts: string[] = [];
  const pending: DocumentSection[] = [section];
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (next.prefix) parts.push(next.prefix);
    if (next.content) parts.push(next.content);
    pending.unshift(...next.sections);
  }
  return parts.join('\n');
}

function checkList(field: string, values: string[] | null | undefined, max: number, limitName: string) {
  const list = [...new Set(values ?? [])];
  if (list.length > max) {
    throw new InvalidRequestError(
      `${field}: at most ${max} per document (${limitName}); got ${list.length}.`,
    );
  }
  for (const value of list) {
    if (value.trim().length === 0 || value.length > DOCUMENT_TAG_MAX) {
      throw new InvalidRequestError(`${field}: each value must be 1 to ${DOCUMENT_TAG_MAX} characters.`);
    }
  }
  return list;
}

function checkSourceUrl(sourceUrl: string | null | undefined): string | null {
  if (sourceUrl === undefined || sourceUrl === null) return null;
  const url = URL.canParse(sourceUrl) ? new URL(sourceUrl) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol) || sourceUrl.length > DOCUMENT_SOURCE_URL_MAX) {
    throw new InvalidRequestError(
      `source_url: must be an http or https URL of at most ${DOCUMENT_SOURCE_URL_MAX} characters.`,
    );
  }
  return sourceUrl;
}

/** Validates an upsert against the limits; `now` is the timestamp of a document that gives none. */
export function checkDocument(
  documentId: string,
  input: DocumentInput,
  limits: DocumentLimits,
  now: Date,
): ValidDocument {
  const id = checkDocumentId(documentId);
  const hasText = input.text !== undefined && input.text !== null;
  const hasSection = input.section !== undefined && input.section !== null;
  if (hasText === hasSection) {
    throw new InvalidRequestError('text, section: give exactly one of them.');
  }
  const text = hasText ? input.text! : sectionText(input.section!);
  const textBytes = Buffer.byteLength(text, 'utf8');
  if (textBytes > limits.maxTextBytes) {
    throw new InvalidRequestError(
      `text: at most ${limits.maxTextBytes} bytes per document (DOCUMENT_MAX_TEXT_BYTES); got ${textBytes}.`,
    );
  }
  const title = (input.title ?? '').trim() || id;
  if (title.length > DOCUMENT_TITLE_MAX) {
    throw new InvalidRequestError(`title: at most ${DOCUMENT_TITLE_MAX} characters.`);
  }
  const mimeType = input.mimeType ?? 'text/plain';
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(mimeType) || mimeType.length > DOCUMENT_MIME_TYPE_MAX) {
    throw new InvalidRequestError('mime_type: must be a media type such as text/plain.');
  }
  const timestamp = input.timestamp ?? now.getTime();
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) {
    throw new InvalidRequestError('timestamp: must be milliseconds since the epoch.');
  }
  const parents = checkList('parents', input.parents, limits.maxParents, 'DOCUMENT_MAX_PARENTS');
  return {
    documentId: id,
    title,
    text,
    textBytes,
    sourceUrl: checkSourceUrl(input.sourceUrl),
    tags: checkList('tags', input.tags, limits.maxTags, 'DOCUMENT_MAX_TAGS'),
    parents: [id, ...parents.filter((parent) => parent !== id)],
    mimeType,
    timestamp,
  };
}

/**
 * Chunks of `CHUNK_WORDS` words, each starting `CHUNK_WORDS - CHUNK_OVERLAP_WORDS` words after the
 * last, one at a time: a caller can pause between them, so a long text never holds the event loop.
 * Words are runs of what `\S` matches, found by one scan of the text.
 */
export function* chunksOf(
  text: string,
  words = CHUNK_WORDS,
  overlap = CHUNK_OVERLAP_WORDS,
): Generator<DocumentChunk> {
  const step = Math.max(1, words - overlap);
  // The words of the chunk being filled: where each starts and ends.
  let starts: number[] = [];
  let ends: number[] = [];
  let at = skipSpace(text, 0);
  let index = 0;
  while (at < text.length) {
    while (starts.length < words && at < text.length) {
      starts.push(at);
      at = skipWord(text, at);
      ends.push(at);
      at = skipSpace(text, at);
    }
    yield { index: index++, offset: starts[0], text: text.slice(starts[0], ends[ends.length - 1]) };
    starts = starts.slice(step);
    ends = ends.slice(step);
  }
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

function skipWord(text: string, from: number): number {
  let at = from;
  while (at < text.length && !isSpace(text.charCodeAt(at))) at += 1;
  return at;
}

/** What `\s` matches: ASCII white space, and Unicode's spaces and line separators. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

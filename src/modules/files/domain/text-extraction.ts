import type { FileUseCase } from 'src/modules/files/domain/file';

/** How a file's text is obtained: read as UTF-8, parsed from a document, or none (described by title). */
export type TextSource = 'utf8' | 'pdf' | 'docx' | 'none' | 'unsupported';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** Content types that are text as they are (validated as UTF-8 on upload, so decoding cannot fail). */
const UTF8_PREFIXES = ['text/'];
const UTF8_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/typescript',
  'application/x-sh',
  'application/xml',
  'application/x-yaml',
  'application/sql',
]);

export function textSourceOf(contentType: string): TextSource {
  if (UTF8_TYPES.has(contentType) || UTF8_PREFIXES.some((prefix) => contentType.startsWith(prefix))) {
    return 'utf8';
  }
  if (contentType === 'application/pdf') return 'pdf';
  if (contentType === DOCX) return 'docx';
  // Images and audio have no text: a fragment of one is described by its title.
  if (contentType.startsWith('image/') || contentType.startsWith('audio/')) return 'none';
  return 'unsupported';
}

/** The use cases whose files are read as text (by the model, or by a data source). */
export function needsText(useCase: FileUseCase): boolean {
  return useCase === 'conversation' || useCase === 'upsert_document';
}

/** Whitespace runs a document parser leaves (blank lines, trailing spaces) are folded. */
export function tidyExtractedText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** How many UTF-8 bytes of a file's text are kept, and why: the reason ends the note of a cut. */
export interface TextLimit {
  maxBytes: number;
  reason: string;
}

/**
 * What a use case keeps of a file's text: a conversation's fragments never give a model more than
 * their budget, and a document never holds more than its limit, so more would never be read.
 */
export function textLimitOf(
  useCase: FileUseCase,
  limits: { fragmentBudgetBytes: number; documentMaxTextBytes: number },
): TextLimit {
  if (useCase === 'upsert_document') {
    return {
      maxBytes: limits.documentMaxTextBytes,
      reason: `a document holds at most ${limits.documentMaxTextBytes} bytes of text (DOCUMENT_MAX_TEXT_BYTES)`,
    };
  }
  return {
    maxBytes: limits.fragmentBudgetBytes,
    reason: `a conversation's files give a model at most ${limits.fragmentBudgetBytes} bytes of text (CONTENT_FRAGMENT_BUDGET_BYTES)`,
  };
}

/**
 * `text` within `limit.maxBytes` UTF-8 bytes. `complete` is false when `text` is only the start of a
 * longer text. A text that does not fit is cut on a character boundary and ends with a note saying
 * where and why; the note counts in the limit.
 */
export function boundText(text: string, complete: boolean, limit: TextLimit): string {
  const bytes = Buffer.from(text, 'utf8');
  if (complete && bytes.length <= limit.maxBytes) return text;
  const note = (kept: number) => `\n\n[Text cut after ${kept} bytes: ${limit.reason}.]`;
  // The note of the largest cut is the longest one.
  const room = Math.max(0, limit.maxBytes - Buffer.byteLength(note(limit.maxBytes)));
  const end = characterStart(bytes, Math.min(room, bytes.length));
  return `${bytes.subarray(0, end).toString('utf8')}${note(end)}`;
}

/** The largest offset at most `offset` where a UTF-8 character starts (or the end). */
function characterStart(bytes: Buffer, offset: number): number {
  let start = offset;
  // 10xxxxxx bytes continue the character before them.
  while (start > 0 && start < bytes.length && (bytes[start] & 0xc0) === 0x80) start -= 1;
  return start;
}

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

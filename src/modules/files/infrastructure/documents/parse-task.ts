import type { DocumentKind } from 'src/modules/files/application/ports/document-parser';
import type { TextLimit } from 'src/modules/files/domain/text-extraction';

/** What a parser thread is given: the document's bytes (transferred, not copied) and the limits. */
export interface ParseTask {
  kind: DocumentKind;
  bytes: Uint8Array;
  limit: TextLimit;
  docxMaxUnzippedBytes: number;
  pdfMaxPages: number;
}

/** The document's text, or why it passes a limit (a sentence naming it); unreadable bytes throw. */
export type ParseOutcome = { text: string } | { overLimit: string };

/** A document past one of the parser's limits; its message names the limit and its setting. */
export class ParseLimitExceeded extends Error {}

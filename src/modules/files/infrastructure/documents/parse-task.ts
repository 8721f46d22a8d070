import type { DocumentKind } from 'src/modules/files/application/ports/document-parser';
import type { TextLimit } from 'src/modules/files/domain/text-extraction';

/** What a parser process is told about the document whose bytes follow. */
export interface ParseTask {
  kind: DocumentKind;
  limit: TextLimit;
  docxMaxUnzippedBytes: number;
  pdfMaxPages: number;
}

/** What the service sends a parser process, in this order: the task, the bytes as read, their end. */
export type ParserMessage = { task: ParseTask } | { chunk: Uint8Array } | { end: true };

/**
 * The document's text; or why it passes a limit (a sentence naming it); or why its bytes are not a
 * readable document. An error's class does not cross processes, so each is answered as a value.
 */
export type ParseOutcome = { text: string } | { overLimit: string } | { unreadable: string };

/** What a parser process sends: that it is ready (its libraries loaded), then one outcome per task. */
export type ParserReply = { ready: true } | { outcome: ParseOutcome };

/** A document past one of the parser's limits; its message names the limit and its setting. */
export class ParseLimitExceeded extends Error {}

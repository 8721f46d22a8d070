import type { Readable } from 'node:stream';
import type { TextLimit } from 'src/modules/files/domain/text-extraction';

export type DocumentKind = 'pdf' | 'docx';

/** Port: text of binary documents (PDF, DOCX), read by parsing libraries away from the event loop. */
export abstract class DocumentParser {
  /**
   * The tidied text of the document whose bytes `open` reads, within `limit` (cut past it, saying
   * so). Throws `FileTooLarge` naming the limit when the document passes one of the parser's own
   * (pages, uncompressed size, time, memory), and another error when the bytes are not a readable
   * document of that kind.
   */
  abstract text(kind: DocumentKind, open: () => Promise<Readable>, limit: TextLimit): Promise<string>;
}

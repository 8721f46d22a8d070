/** Port: text of binary documents (PDF, DOCX), by a parsing library kept out of the core. */
export abstract class DocumentParser {
  /** The document's text; throws when the bytes are not a readable document of that kind. */
  abstract text(kind: 'pdf' | 'docx', bytes: Buffer): Promise<string>;
}

import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import type { FileRecord } from 'src/modules/files/domain/file';
import { FileTypeNotSupported } from 'src/modules/files/domain/files.errors';
import { needsText, textSourceOf, tidyExtractedText } from 'src/modules/files/domain/text-extraction';

/**
 * Reads a file's text once, when its upload completes, for the use cases that need it. Text types
 * are taken as they are; PDF and DOCX go through the document parser; images and audio have none.
 */
@Injectable()
export class FileTextsService {
  constructor(
    private readonly parser: DocumentParser,
    private readonly log: OperatorLog,
  ) {}

  /**
   * The text of `file`, whose content `open` reads; null when its use case needs none or its type
   * has none. A file whose use case needs text and whose text cannot be read is refused.
   */
  async extract(file: FileRecord, open: () => Promise<Readable>): Promise<string | null> {
    if (!needsText(file.useCase)) return null;
    const source = textSourceOf(file.contentType);
    if (source === 'none') return null;
    if (source === 'unsupported') {
      throw new FileTypeNotSupported(
        `The text of ${file.contentType} files cannot be read, and ${file.useCase} files need their text: upload it as PDF, DOCX or text.`,
      );
    }
    const bytes = await readAll(await open());
    if (source === 'utf8') return bytes.toString('utf8');
    let text: string;
    try {
      text = tidyExtractedText(await this.parser.text(source, bytes));
    } catch (error) {
      this.log.info(FileTextsService.name, { err: error, file: file.sId }, 'A document could not be parsed');
      throw new FileTypeNotSupported(
        `The text of this ${source.toUpperCase()} file could not be read: it is damaged or not a ${source.toUpperCase()} document.`,
      );
    }
    if (text === '') {
      throw new FileTypeNotSupported(
        `This ${source.toUpperCase()} file has no text to read (a scanned document needs OCR first).`,
      );
    }
    return text;
  }
}

async function readAll(content: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of content as AsyncIterable<Buffer | string>) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks);
}

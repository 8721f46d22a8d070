import { Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { DomainError } from 'src/platform/errors/domain-error';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { readPrefix } from 'src/modules/files/application/bounded-read';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';
import type { FileRecord } from 'src/modules/files/domain/file';
import { FileTypeNotSupported } from 'src/modules/files/domain/files.errors';
import { boundText, needsText, textLimitOf, textSourceOf } from 'src/modules/files/domain/text-extraction';
import { FilesConfig } from 'src/modules/files/files.config';
import { ConversationsConfig } from 'src/modules/conversations/conversations.api';

/**
 * Reads a file's text once, when its upload completes, for the use cases that need it. Text types
 * are taken as they are; PDF and DOCX go through the document parser; images and audio have none.
 * Only what the use case can ever use is kept (see `textLimitOf`), and only that much is read.
 */
@Injectable()
export class FileTextsService {
  constructor(
    private readonly parser: DocumentParser,
    private readonly config: FilesConfig,
    private readonly conversationsConfig: ConversationsConfig,
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
    const limit = textLimitOf(file.useCase, {
      fragmentBudgetBytes: this.conversationsConfig.contentFragmentBudgetBytes,
      documentMaxTextBytes: this.config.documentMaxTextBytes,
    });
    if (source === 'utf8') {
      const { bytes, complete } = await readPrefix(await open(), limit.maxBytes);
      return boundText(bytes.toString('utf8'), complete, limit);
    }
    const kind = source.toUpperCase();
    let text: string;
    try {
      text = await this.parser.text(source, open, limit);
    } catch (error) {
      // A limit of the parser, which its message names.
      if (error instanceof DomainError) throw error;
      this.log.info(FileTextsService.name, { err: error, file: file.sId }, 'A document could not be parsed');
      throw new FileTypeNotSupported(
        `The text of this ${kind} file could not be read: it is damaged or not a ${kind} document.`,
      );
    }
    if (text === '') {
      throw new FileTypeNotSupported(
        `This ${kind} file has no text to read (a scanned document needs OCR first).`,
      );
    }
    return text;
  }
}

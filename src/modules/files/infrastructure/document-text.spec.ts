import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import type { OperatorLog } from 'src/platform/logging/operator-log';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import type { FileRecord, FileUseCase } from 'src/modules/files/domain/file';
import { LibraryDocumentParser } from 'src/modules/files/infrastructure/library-document-parser';
import { docxOf, pdfOf } from 'test/support/documents';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as OperatorLog;
const texts = new FileTextsService(new LibraryDocumentParser(), log);

function extract(contentType: string, bytes: Buffer, useCase: FileUseCase = 'conversation') {
  const file = { sId: 'fil_x', contentType, useCase } as FileRecord;
  return texts.extract(file, async () => Readable.from([bytes]));
}

describe('FileTextsService', () => {
  it('reads the text of a PDF', async () => {
    const pdf = pdfOf(['Quarterly report (draft)', 'Revenue grew 12% in Zurich']);
    expect(await extract('application/pdf', pdf)).toBe(
      'Quarterly report (draft)\nRevenue grew 12% in Zurich',
    );
  });

  it('reads the paragraphs of a DOCX', async () => {
    const docx = docxOf(['Meeting notes', 'Ship the beta on Friday.']);
    expect(await extract(DOCX, docx, 'upsert_document')).toBe('Meeting notes\n\nShip the beta on Friday.');
  });

  it('takes text, Markdown, CSV, JSON and code as they are', async () => {
    for (const [type, text] of [
      ['text/plain', 'Grüße 👍\n'],
      ['text/markdown', '# Notes\n\n- done\n'],
      ['text/csv', 'name,city\nZoë,Zürich\n'],
      ['application/json', '{"ok":true}'],
      ['text/x-python', 'print("hi")\n'],
    ]) {
      expect(await extract(type, Buffer.from(text))).toBe(text);
    }
  });

  it('gives no text, without error, for images and for use cases that need none', async () => {
    expect(await extract('image/png', Buffer.from('png'))).toBeNull();
    expect(await extract('application/pdf', Buffer.from('not read'), 'tool_output')).toBeNull();
  });

  it('refuses a damaged PDF or DOCX, a PDF without text, and a type whose text cannot be read', async () => {
    await expect(extract('application/pdf', Buffer.from('%PDF-1.7\n%âãÏÓ\n'))).rejects.toMatchObject({
      code: 'file_type_not_supported',
      message: expect.stringContaining('could not be read'),
    });
    await expect(extract(DOCX, Buffer.from('PK\u0003\u0004 not a zip'))).rejects.toMatchObject({
      code: 'file_type_not_supported',
    });
    await expect(extract('application/pdf', pdfOf([]))).rejects.toMatchObject({
      message: expect.stringContaining('no text'),
    });
    await expect(extract('application/vnd.ms-excel', Buffer.from('x'))).rejects.toMatchObject({
      code: 'file_type_not_supported',
      message: expect.stringContaining('cannot be read'),
    });
  });
});

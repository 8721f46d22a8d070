import { afterAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import type { OperatorLog } from 'src/platform/logging/operator-log';
import { FileTextsService } from 'src/modules/files/application/file-texts.service';
import type { FileRecord, FileUseCase } from 'src/modules/files/domain/file';
import { ProcessPoolDocumentParser } from 'src/modules/files/infrastructure/documents/process-pool-document-parser';
import { FilesConfig } from 'src/modules/files/files.config';
import { ConversationsConfig } from 'src/modules/conversations/conversations.config';
import { docxBombOf, docxOf, pdfOf } from 'test/support/documents';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
} as unknown as OperatorLog;
const config = FilesConfig.from({ PDF_MAX_PAGES: '3' });
const parser = new ProcessPoolDocumentParser(config, log);
const texts = new FileTextsService(
  parser,
  config,
  ConversationsConfig.from({ CONTENT_FRAGMENT_BUDGET_BYTES: '2048' }),
  log,
);

function extract(contentType: string, bytes: Buffer, useCase: FileUseCase = 'conversation') {
  const file = { sId: 'fil_x', contentType, useCase } as FileRecord;
  return texts.extract(file, async () => Readable.from([bytes]));
}

describe('FileTextsService', () => {
  afterAll(() => parser.onApplicationShutdown());

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

  it('keeps what the use case can use of a long text or document, saying where it was cut', async () => {
    const note =
      /\n\n\[Text cut after \d+ bytes: a conversation's files give a model at most 2048 bytes of text \(CONTENT_FRAGMENT_BUDGET_BYTES\)\.\]$/;
    const text = await extract('text/plain', Buffer.from('word '.repeat(100_000)));
    expect(text).toMatch(note);
    expect(Buffer.byteLength(text!)).toBeLessThanOrEqual(2048);
    const docx = await extract(DOCX, docxOf(Array.from({ length: 500 }, (_, i) => `Paragraph ${i}`)));
    expect(docx).toMatch(/^Paragraph 0\n\nParagraph 1\n\n/);
    expect(docx).toMatch(note);
    expect(Buffer.byteLength(docx!)).toBeLessThanOrEqual(2048);
    // A whole upsert_document text fits within DOCUMENT_MAX_TEXT_BYTES.
    expect(await extract('text/plain', Buffer.from('word '.repeat(1_000)), 'upsert_document')).toBe(
      'word '.repeat(1_000),
    );
  });

  it('refuses a PDF of more pages than PDF_MAX_PAGES, naming it', async () => {
    await expect(extract('application/pdf', pdfOf(['one'], 4))).rejects.toMatchObject({
      code: 'file_too_large',
      message: 'This PDF file has 4 pages; PDF_MAX_PAGES allows 3.',
    });
    expect(await extract('application/pdf', pdfOf(['one'], 3))).toBe('one\none\none');
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

  it('refuses a DOCX whose XML passes DOCX_MAX_UNZIPPED_MB, naming it', async () => {
    await expect(extract(DOCX, docxBombOf(50 * 1024 * 1024))).rejects.toMatchObject({
      code: 'file_too_large',
      message: expect.stringMatching(/XML parts take \d+ bytes; DOCX_MAX_UNZIPPED_MB allows 8 MiB\.$/),
    });
  });
});

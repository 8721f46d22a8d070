import { Injectable } from '@nestjs/common';
import mammoth from 'mammoth';
import { extractText, getDocumentProxy } from 'unpdf';
import { DocumentParser } from 'src/modules/files/application/ports/document-parser';

/** `unpdf` (pdf.js, serverless build) for PDF and `mammoth` for DOCX: pure JavaScript, no binary. */
@Injectable()
export class LibraryDocumentParser extends DocumentParser {
  async text(kind: 'pdf' | 'docx', bytes: Buffer): Promise<string> {
    if (kind === 'docx') return (await mammoth.extractRawText({ buffer: bytes })).value;
    // pdf.js takes ownership of the array it is given: it gets a copy.
    const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
    try {
      return (await extractText(pdf, { mergePages: true })).text;
    } finally {
      await pdf.destroy();
    }
  }
}

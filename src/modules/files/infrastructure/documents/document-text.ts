import mammoth from 'mammoth';
import { getDocumentProxy } from 'unpdf';
import { type TextLimit, boundText, tidyExtractedText } from 'src/modules/files/domain/text-extraction';
import { readDocxParts } from 'src/modules/files/infrastructure/documents/docx-archive';
import { ParseLimitExceeded } from 'src/modules/files/infrastructure/documents/parse-task';

/**
 * The text of a PDF (`unpdf`: pdf.js, serverless build), page after page until `limit` is passed;
 * a PDF of more than `maxPages` pages is refused before any page is read.
 */
export async function pdfText(bytes: Uint8Array, limit: TextLimit, maxPages: number): Promise<string> {
  const pdf = await getDocumentProxy(bytes, { verbosity: 0 });
  try {
    if (pdf.numPages > maxPages) {
      throw new ParseLimitExceeded(
        `This PDF file has ${pdf.numPages} pages; PDF_MAX_PAGES allows ${maxPages}.`,
      );
    }
    const pages: string[] = [];
    let length = 0;
    // Characters are at least one byte each: past the limit in characters, the rest would be cut.
    while (pages.length < pdf.numPages && length <= limit.maxBytes) {
      const page = await pdf.getPage(pages.length + 1);
      const content = await page.getTextContent();
      const text = content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join('');
      page.cleanup();
      pages.push(text);
      length += text.length + 1;
    }
    return boundText(tidyExtractedText(mergePages(pages)), pages.length === pdf.numPages, limit);
  } finally {
    await pdf.destroy();
  }
}

/** Pages joined as `unpdf`'s `extractText` merges them: runs of spaces folded, one line apart. */
function mergePages(pages: string[]): string {
  return pages
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n');
}

/**
 * The raw text of a DOCX (`mammoth`), read from its XML parts only once their uncompressed size is
 * known to be within `maxUnzippedBytes`.
 */
export async function docxText(
  bytes: Uint8Array,
  limit: TextLimit,
  maxUnzippedBytes: number,
): Promise<string> {
  const parts = await readDocxParts(
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
    maxUnzippedBytes,
  );
  const { value } = await mammoth.extractRawText({
    buffer: Buffer.from(parts.buffer, parts.byteOffset, parts.length),
  });
  return boundText(tidyExtractedText(value), true, limit);
}

import { describe, expect, it } from '@jest/globals';
import { unzipSync } from 'fflate';
import { checkZipEntries, readDocxParts } from 'src/modules/files/infrastructure/documents/docx-archive';
import { docxBombOf, docxOf } from 'test/support/documents';

const MIB = 1024 * 1024;

describe('checkZipEntries', () => {
  it('keeps the XML parts, whose declared sizes add up within the limit, and leaves the rest uninflated', () => {
    const entries = [
      { name: 'word/document.xml', uncompressedSize: 3 * MIB },
      { name: 'word/_rels/document.xml.rels', uncompressedSize: MIB },
      { name: 'word/media/image1.png', uncompressedSize: 500 * MIB },
      { name: '[Content_Types].XML', uncompressedSize: MIB },
    ];
    expect(checkZipEntries(entries, 5 * MIB).map((entry) => entry.name)).toEqual([
      'word/document.xml',
      'word/_rels/document.xml.rels',
      '[Content_Types].XML',
    ]);
  });

  it('refuses parts that add up past the limit, naming DOCX_MAX_UNZIPPED_MB', () => {
    const entries = [
      { name: 'word/document.xml', uncompressedSize: 4 * MIB },
      { name: 'word/styles.xml', uncompressedSize: MIB + 1 },
    ];
    expect(() => checkZipEntries(entries, 5 * MIB)).toThrow(
      `This DOCX file is too large once uncompressed: its XML parts take ${5 * MIB + 1} bytes; DOCX_MAX_UNZIPPED_MB allows 5 MiB.`,
    );
  });
});

describe('readDocxParts', () => {
  it('inflates the XML parts of a document and packs them again, stored', async () => {
    const stored = await readDocxParts(docxOf(['Hello']), MIB);
    const parts = unzipSync(stored);
    expect(Object.keys(parts).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'word/document.xml']);
    expect(Buffer.from(parts['word/document.xml']).toString()).toContain(
      '<w:t xml:space="preserve">Hello</w:t>',
    );
  });

  it('refuses a zip bomb from its central directory, before inflating it', async () => {
    const bomb = docxBombOf(50 * MIB);
    expect(bomb.length).toBeLessThan(200 * 1024);
    // Only the central directory's declared sizes give this message: nothing was inflated.
    await expect(readDocxParts(bomb, 8 * MIB)).rejects.toThrow(
      /^This DOCX file is too large once uncompressed: its XML parts take 5\d{7} bytes; DOCX_MAX_UNZIPPED_MB allows 8 MiB\.$/,
    );
  });

  it('stops inflating a part at the first byte past the size its central directory declares', async () => {
    const liar = docxBombOf(50 * MIB, 1_000);
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    await expect(readDocxParts(liar, 8 * MIB)).rejects.toThrow(
      /too many bytes in the stream\. expected 1000/,
    );
    const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    expect(heapAfter - heapBefore).toBeLessThan(8 * MIB);
  });
});

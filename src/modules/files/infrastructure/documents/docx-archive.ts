import { zipSync } from 'fflate';
import { fromBufferPromise } from 'yauzl';
import { ParseLimitExceeded } from 'src/modules/files/infrastructure/documents/parse-task';

/** An entry as the zip's central directory declares it. */
export interface ZipEntrySize {
  name: string;
  uncompressedSize: number;
}

/** The parts that hold a DOCX's text, styles and numbering; images, fonts and the like are never inflated. */
export function isXmlPart(name: string): boolean {
  return /\.(xml|rels)$/i.test(name);
}

/**
 * The XML parts to inflate, from the central directory, before anything is inflated: refused when
 * their declared sizes add up to more than `maxBytes`.
 */
export function checkZipEntries(entries: ZipEntrySize[], maxBytes: number): ZipEntrySize[] {
  const parts = entries.filter((entry) => isXmlPart(entry.name));
  const total = parts.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > maxBytes) {
    const mib = +(maxBytes / (1024 * 1024)).toFixed(2);
    throw new ParseLimitExceeded(
      `This DOCX file is too large once uncompressed: its XML parts take ${total} bytes; DOCX_MAX_UNZIPPED_MB allows ${mib} MiB.`,
    );
  }
  return parts;
}

/**
 * The XML parts of a DOCX, inflated within `maxBytes` in all, packed again as a zip of stored
 * (uncompressed) entries: the document library reads only what was checked here. Sizes are checked
 * twice: declared, before inflating; then as bytes come out of the inflater, which fails at the
 * first byte past an entry's declared size (yauzl's `validateEntrySizes`).
 */
export async function readDocxParts(bytes: Buffer, maxBytes: number): Promise<Uint8Array> {
  const zip = await fromBufferPromise(bytes, {
    lazyEntries: true,
    autoClose: false,
    validateEntrySizes: true,
  });
  try {
    const entries = [];
    for await (const entry of zip.eachEntry()) entries.push(entry);
    const wanted = new Set(
      checkZipEntries(
        entries.map((entry) => ({ name: entry.fileName, uncompressedSize: entry.uncompressedSize })),
        maxBytes,
      ).map((entry) => entry.name),
    );
    const parts: Record<string, Uint8Array> = {};
    for (const entry of entries) {
      if (!wanted.has(entry.fileName)) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of (await zip.openReadStreamPromise(entry)) as AsyncIterable<Buffer>) {
        chunks.push(chunk);
      }
      parts[entry.fileName] = Buffer.concat(chunks);
    }
    return zipSync(parts, { level: 0 });
  } finally {
    zip.close();
  }
}

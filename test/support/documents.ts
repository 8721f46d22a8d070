import { crc32, deflateRawSync, deflateSync } from 'node:zlib';

/**
 * Small genuine documents built in the test, so extraction is checked on real formats without
 * committed binaries: a PDF in Helvetica, and a DOCX of plain paragraphs.
 */

/** A PDF of `pages` pages, each showing `lines` (one content stream, shared): 20,000 pages take 3 MB. */
export function pdfOf(lines: string[], pages = 1): Buffer {
  const escape = (line: string) => line.replace(/[\\()]/g, (c) => `\\${c}`);
  const stream = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((line) => `(${escape(line)}) '`).join(' ')} ET`;
  const firstPage = 5;
  const kids = Array.from({ length: pages }, (_, i) => `${firstPage + i} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...Array.from(
      { length: pages },
      () =>
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>',
    ),
  ];
  const parts = ['%PDF-1.4\n'];
  let length = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(length);
    parts.push(`${i + 1} 0 obj\n${object}\nendobj\n`);
    length += Buffer.byteLength(parts[parts.length - 1], 'latin1');
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  // One push per entry: spread, hundreds of thousands of arguments pass the call stack's size.
  for (const offset of offsets) parts.push(`${String(offset).padStart(10, '0')} 00000 n \n`);
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

export function docxOf(paragraphs: string[]): Buffer {
  const body = paragraphs
    .map((text) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`)
    .join('');
  return zipOf(docxParts(Buffer.from(body)));
}

/**
 * A zip bomb posing as a DOCX: a valid document whose `word/document.xml` holds `bytes` bytes of one
 * paragraph repeated, deflated (50 MB take about 50 KB). Its sizes are declared as they are, or
 * `declaredBytes` when given (a central directory that lies).
 */
export function docxBombOf(bytes: number, declaredBytes?: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>All work and no play makes Jack a dull boy.</w:t></w:r></w:p>';
  return zipOf(docxParts(Buffer.alloc(bytes - (bytes % paragraph.length), paragraph)), {
    deflate: true,
    declare: (name, size) => (name === 'word/document.xml' ? (declaredBytes ?? size) : size),
  });
}

function docxParts(body: Buffer): [string, Buffer][] {
  return [
    [
      '[Content_Types].xml',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
    ],
    [
      '_rels/.rels',
      Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
    ],
    [
      'word/document.xml',
      Buffer.concat([
        Buffer.from(
          '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>',
        ),
        body,
        Buffer.from('</w:body></w:document>'),
      ]),
    ],
  ];
}

/**
 * A genuine RGB PNG of `width` × `height` pixels, each coloured by `pixel`: small and uniform by
 * default, as large as wanted with varied pixels (which do not compress).
 */
export function pngOf(
  width: number,
  height: number,
  pixel: (x: number, y: number) => [number, number, number] = () => [200, 30, 30],
): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const rows = Array.from({ length: height }, (_, y) =>
    Buffer.from([0, ...Array.from({ length: width }, (_, x) => pixel(x, y)).flat()]),
  );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A zip archive of stored entries, or deflated ones; `declare` gives the uncompressed size each
 * entry's headers declare (its real size unless a test wants them to lie).
 */
function zipOf(
  entries: [string, Buffer][],
  options: { deflate?: boolean; declare?: (name: string, size: number) => number } = {},
): Buffer {
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const data = options.deflate ? deflateRawSync(content, { level: 9 }) : content;
    const method = options.deflate ? 8 : 0;
    const size = options.declare?.(name, content.length) ?? content.length;
    const fileName = Buffer.from(name);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    parts.push(local, fileName, data);
    directory.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const centralDirectory = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, centralDirectory, end]);
}

/**
 * Hostile documents for the bench, built on the fly as the test suite's own generators build them
 * (test/support/documents.ts, TypeScript that `npm run build` does not compile): a PDF of many
 * pages, and a DOCX whose XML inflates to as many bytes as wanted.
 */
const { crc32, deflateRawSync } = require('node:zlib');

/** A PDF of `pages` pages sharing one content stream that shows `line`: 20,000 pages take 3 MB. */
function pdfOf(line, pages) {
  const stream = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const page =
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources << /Font << /F1 4 0 R >> >> >>';
  const kids = Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    `<< /Length ${Buffer.byteLength(stream)} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...Array.from({ length: pages }, () => page),
  ];
  const parts = ['%PDF-1.4\n'];
  const offsets = [];
  let length = parts[0].length;
  objects.forEach((object, i) => {
    offsets.push(length);
    parts.push(`${i + 1} 0 obj\n${object}\nendobj\n`);
    length += Buffer.byteLength(parts.at(-1), 'latin1');
  });
  parts.push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  parts.push(...offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`));
  parts.push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

/**
 * A valid DOCX whose `word/document.xml` holds `bytes` bytes of one paragraph repeated, deflated,
 * its sizes declared as they are: 50 MB take about 50 KB (a zip bomb), 6 MB a genuine large document.
 */
function docxOfSize(bytes) {
  const paragraph = '<w:p><w:r><w:t>All work and no play makes Jack a dull boy.</w:t></w:r></w:p>';
  const body = Buffer.alloc(bytes - (bytes % paragraph.length), paragraph);
  return zipOf([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
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
  ]);
}

/** A zip archive of deflated entries. */
function zipOf(entries) {
  const parts = [];
  const directory = [];
  let offset = 0;
  for (const [name, text] of entries) {
    const content = Buffer.from(text);
    const data = deflateRawSync(content, { level: 9 });
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(content), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(content), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(content.length, 24);
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

module.exports = { pdfOf, docxOfSize };

/** Enough leading bytes to recognise every signature below (WEBP needs 12). */
export const SIGNATURE_BYTES = 12;

const ascii = (head: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...head.subarray(start, end));

const startsWith = (bytes: number[]) => (head: Uint8Array) => bytes.every((byte, i) => head[i] === byte);

/** Office Open XML documents are zip archives; the older binary formats are OLE compound files. */
const ZIP = startsWith([0x50, 0x4b, 0x03, 0x04]);
const OLE = startsWith([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** The binary types whose first bytes say what they are. */
const SIGNATURES = new Map<string, (head: Uint8Array) => boolean>([
  ['image/png', startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/jpeg', startsWith([0xff, 0xd8, 0xff])],
  ['image/gif', (head) => ['GIF87a', 'GIF89a'].includes(ascii(head, 0, 6))],
  ['image/webp', (head) => ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP'],
  ['application/pdf', (head) => ascii(head, 0, 5) === '%PDF-'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', ZIP],
  ['application/vnd.openxmlformats-officedocument.presentationml.presentation', ZIP],
  ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', ZIP],
  ['application/msword', OLE],
  ['application/vnd.ms-powerpoint', OLE],
  ['application/vnd.ms-excel', OLE],
]);

/** False when `contentType` has a signature and `head` (the first bytes) does not carry it. */
export function matchesSignature(contentType: string, head: Uint8Array): boolean {
  const matches = SIGNATURES.get(contentType);
  return matches ? matches(head) : true;
}

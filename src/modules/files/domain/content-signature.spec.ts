import { describe, expect, it } from '@jest/globals';
import { matchesSignature } from 'src/modules/files/domain/content-signature';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))),
  );

describe('content signatures', () => {
  const genuine: [string, Buffer][] = [
    ['image/png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xdb])],
    ['image/gif', bytes('GIF87a')],
    ['image/webp', bytes('RIFF', [0, 0, 0, 0], 'WEBP')],
    ['application/pdf', bytes('%PDF-1.4')],
    ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', bytes('PK', [3, 4, 20, 0])],
    ['application/vnd.openxmlformats-officedocument.presentationml.presentation', bytes('PK', [3, 4])],
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes('PK', [3, 4, 10, 0])],
    ['application/msword', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])],
    ['application/vnd.ms-powerpoint', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])],
    ['application/vnd.ms-excel', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0])],
  ];

  it('recognises each binary type by its first bytes', () => {
    for (const [contentType, head] of genuine) expect(matchesSignature(contentType, head)).toBe(true);
  });

  it('refuses the first bytes of another type, or too few bytes', () => {
    for (const [contentType] of genuine) {
      expect(matchesSignature(contentType, bytes('plain text here'))).toBe(false);
      expect(matchesSignature(contentType, bytes([0x89]))).toBe(false);
    }
    expect(matchesSignature('image/webp', bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBe(false);
    // An old Word file declared as the new format, and the other way round.
    expect(matchesSignature('application/msword', bytes('PK', [3, 4]))).toBe(false);
    expect(
      matchesSignature(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      ),
    ).toBe(false);
  });

  it('has nothing to check for types without a signature', () => {
    expect(matchesSignature('text/plain', bytes([0, 1, 2]))).toBe(true);
    expect(matchesSignature('audio/mpeg', bytes('anything'))).toBe(true);
  });
});

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
  });

  it('has nothing to check for types without a signature', () => {
    expect(matchesSignature('text/plain', bytes([0, 1, 2]))).toBe(true);
    expect(matchesSignature('audio/mpeg', bytes('anything'))).toBe(true);
  });
});

import { describe, expect, it } from '@jest/globals';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { decodeCursor, encodeCursor } from 'src/platform/http/cursor';

describe('cursor codec', () => {
  it('gives back the position it encoded', () => {
    for (const value of [-1, 0, 1, 49, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      expect(decodeCursor(encodeCursor(value))).toBe(value);
    }
  });

  it('is opaque and safe in a URL', () => {
    expect(encodeCursor(50)).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(encodeCursor(50)).not.toContain('50');
  });

  it('refuses what it did not write', () => {
    const other = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      '',
      '!!',
      other('abc'),
      other('1.5'),
      other('-2'),
      other('007'),
      other('1e3'),
      `${encodeCursor(5)}=`,
    ]) {
      expect(() => decodeCursor(cursor)).toThrow(InvalidRequestError);
      expect(() => decodeCursor(cursor)).toThrow('cursor: not a cursor this API returned.');
    }
    expect(() => decodeCursor(other(String(2 ** 53)))).toThrow(InvalidRequestError);
  });
});

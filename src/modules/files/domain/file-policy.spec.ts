import { describe, expect, it } from '@jest/globals';
import { checkNewFile, normaliseContentType } from 'src/modules/files/domain/file-policy';

const MIB = 1024 * 1024;
const LIMITS = { image: 5 * MIB, document: 50 * MIB, audio: 100 * MIB };

describe('the file policy', () => {
  it('normalises the content type to its lower-case media type', () => {
    expect(normaliseContentType(' Text/Plain; charset=UTF-8')).toBe('text/plain');
    expect(checkNewFile({ contentType: 'IMAGE/PNG', fileSize: 10, useCase: 'avatar' }, LIMITS)).toBe(
      'image/png',
    );
  });

  it('accepts each family up to its own limit', () => {
    const accepted: [string, number][] = [
      ['image/jpeg', 5 * MIB],
      ['text/markdown', 50 * MIB],
      ['application/pdf', 50 * MIB],
      ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 50 * MIB],
      ['audio/mpeg', 100 * MIB],
    ];
    for (const [contentType, fileSize] of accepted) {
      expect(checkNewFile({ contentType, fileSize, useCase: 'conversation' }, LIMITS)).toBe(contentType);
      expect(() =>
        checkNewFile({ contentType, fileSize: fileSize + 1, useCase: 'conversation' }, LIMITS),
      ).toThrow(expect.objectContaining({ code: 'file_too_large' }));
    }
  });

  it('refuses unknown types, and types the use case does not take', () => {
    for (const [contentType, useCase] of [
      ['application/x-msdownload', 'conversation'],
      ['constructor', 'conversation'],
      ['text/plain', 'avatar'],
      ['image/png', 'upsert_table'],
      ['audio/mpeg', 'folders_document'],
    ] as const) {
      expect(() => checkNewFile({ contentType, fileSize: 1, useCase }, LIMITS)).toThrow(
        expect.objectContaining({ code: 'file_type_not_supported' }),
      );
    }
  });

  it('refuses a declared size of zero', () => {
    expect(() =>
      checkNewFile({ contentType: 'text/plain', fileSize: 0, useCase: 'conversation' }, LIMITS),
    ).toThrow(expect.objectContaining({ code: 'file_is_empty' }));
  });

  it('names the limit in its refusal', () => {
    expect(() =>
      checkNewFile({ contentType: 'image/gif', fileSize: 6 * MIB, useCase: 'avatar' }, LIMITS),
    ).toThrow(/at most 5 MB/);
  });
});

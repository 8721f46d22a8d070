import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { JSON_DEPTH_MAX, textContentCheck } from 'src/modules/files/domain/text-content';

/** The verdict of the check on `text` cut into the given pieces (as bytes). */
function verdict(contentType: string, bytes: Buffer, cuts: number[] = []): string | null {
  const check = textContentCheck(contentType)!;
  let start = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((x, y) => x - y)) {
    const error = check.push(bytes.subarray(start, cut));
    if (error) return error;
    start = cut;
  }
  return check.push(bytes.subarray(start)) ?? check.end();
}

describe('text content checks', () => {
  it('has no check for other types', () => {
    expect(textContentCheck('image/png')).toBeNull();
    expect(textContentCheck('text/x-python')).toBeNull();
  });

  it('agrees with JSON.parse on random documents and their mutations, however they are cut', () => {
    const document = fc.oneof(
      fc.json(),
      fc.json().map((json) => json.slice(0, -1)),
      fc.tuple(fc.json(), fc.string({ maxLength: 3 })).map(([json, extra]) => json + extra),
      fc.string({ maxLength: 20 }),
    );
    fc.assert(
      fc.property(document, fc.array(fc.nat(200), { maxLength: 4 }), (text, cuts) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(verdict('application/json', Buffer.from(text), cuts) === null).toBe(
          parses && !text.includes('\u0000'),
        );
      }),
      { numRuns: 500 },
    );
  });

  it(`refuses JSON nested deeper than ${JSON_DEPTH_MAX} levels`, () => {
    const nested = (depth: number) => Buffer.from('['.repeat(depth) + ']'.repeat(depth));
    expect(verdict('application/json', nested(JSON_DEPTH_MAX))).toBeNull();
    expect(verdict('application/json', nested(JSON_DEPTH_MAX + 1))).toMatch(/deeper than/);
  });

  it('names the character where JSON goes wrong', () => {
    expect(verdict('application/json', Buffer.from('[1,, 2]'))).toBe(
      'The content is not valid JSON: unexpected "," where a value belongs at character 3.',
    );
    expect(verdict('application/json', Buffer.from('{"a": 1,}'))).toBe(
      'The content is not valid JSON: expected a key in double quotes but found "}" at character 8.',
    );
  });

  it('agrees with a strict UTF-8 decoder on text, whatever bytes and however they are cut', () => {
    const bytes = fc.oneof(
      fc.string({ unit: 'binary' }).map((text) => Buffer.from(text)),
      fc.uint8Array({ maxLength: 24 }).map((array) => Buffer.from(array)),
      fc
        .tuple(fc.string({ unit: 'binary' }), fc.nat())
        .map(([text, cut]) => Buffer.from(text).subarray(0, cut % (Buffer.byteLength(text) + 1))),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(30), { maxLength: 4 }), (content, cuts) => {
        let valid: boolean;
        try {
          valid = !new TextDecoder('utf-8', { fatal: true }).decode(content).includes('\u0000');
        } catch {
          valid = false;
        }
        expect(verdict('text/plain', content, cuts) === null).toBe(valid);
      }),
      { numRuns: 2_000 },
    );
  });

  it('says why text is refused', () => {
    expect(verdict('text/csv', Buffer.from([0x61, 0xe2, 0x82]))).toBe(
      'The content is not UTF-8 text, as text/csv must be.',
    );
    expect(verdict('text/plain', Buffer.from('a\u0000b'))).toBe(
      'The content holds NUL bytes: it is not text/plain text.',
    );
    expect(verdict('text/plain', Buffer.from('Grüße 👍'), [3, 9, 10])).toBeNull();
  });
});

import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { checkDocument, chunksOf, sectionText } from 'src/modules/data-sources/domain/document';

const limits = { maxTextBytes: 100, maxPerDataSource: 10, maxTags: 2, maxParents: 2 };
const now = new Date('2026-01-01T00:00:00Z');

/** The chunks as first written: every word's span from a regular expression, then the windows. */
function referenceChunks(text: string, words: number, overlap: number) {
  const spans = [...text.matchAll(/\S+/g)].map((match) => [match.index, match.index + match[0].length]);
  const chunks = [];
  const step = Math.max(1, words - overlap);
  for (let start = 0; start < spans.length; start += step) {
    const end = Math.min(spans.length, start + words);
    const offset = spans[start][0];
    chunks.push({ index: chunks.length, offset, text: text.slice(offset, spans[end - 1][1]) });
    if (end === spans.length) break;
  }
  return chunks;
}

const chunkText = (text: string, words?: number, overlap?: number) => [...chunksOf(text, words, overlap)];

describe('chunks', () => {
  it('cuts words into overlapping chunks whose offsets point into the text', () => {
    const text = Array.from({ length: 10 }, (_, i) => `w${i}`).join('  ');
    const chunks = chunkText(text, 4, 1);
    expect(chunks.map((chunk) => chunk.text)).toEqual(['w0  w1  w2  w3', 'w3  w4  w5  w6', 'w6  w7  w8  w9']);
    for (const chunk of chunks)
      expect(text.slice(chunk.offset, chunk.offset + chunk.text.length)).toBe(chunk.text);
  });

  it('gives no chunk for blank text and one for a short text', () => {
    expect(chunkText('  \n ')).toEqual([]);
    expect(chunkText(' hello ')).toEqual([{ index: 0, offset: 1, text: 'hello' }]);
  });

  it('finds the words a regular expression finds, in every kind of white space', () => {
    const spaces = [
      ' ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u1680',
      '\u2003',
      '\u2028',
      '\u202f',
      '\u3000',
      '\ufeff',
    ];
    const text = fc
      .array(fc.oneof(fc.constantFrom(...spaces), fc.string({ unit: 'grapheme', maxLength: 4 })), {
        maxLength: 60,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(
        text,
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 5 }),
        (t, words, overlap) => {
          expect(chunkText(t, words, overlap)).toEqual(referenceChunks(t, words, overlap));
        },
      ),
      { numRuns: 1_000 },
    );
  });
});

describe('checking a document', () => {
  it('defaults the title, the media type and the timestamp, and puts the document first in its parents', () => {
    expect(checkDocument('doc', { text: 'hi', parents: ['folder', 'doc'] }, limits, now)).toEqual({
      documentId: 'doc',
      title: 'doc',
      text: 'hi',
      textBytes: 2,
      sourceUrl: null,
      tags: [],
      parents: ['doc', 'folder'],
      mimeType: 'text/plain',
      timestamp: now.getTime(),
    });
  });

  it('reads a section tree depth first', () => {
    const section = {
      prefix: 'A',
      content: 'a',
      sections: [
        { prefix: 'B', content: null, sections: [{ prefix: null, content: 'c', sections: [] }] },
        { prefix: 'D', content: 'd', sections: [] },
      ],
    };
    expect(sectionText(section)).toBe('A\na\nB\nc\nD\nd');
  });

  it('refuses what breaks a limit, naming the limit, in bytes for the text', () => {
    const refuse = (input: Parameters<typeof checkDocument>[1], pattern: RegExp) => {
      expect(() => checkDocument('doc', input, limits, now)).toThrow(InvalidRequestError);
      expect(() => checkDocument('doc', input, limits, now)).toThrow(pattern);
    };
    refuse({ text: 'é'.repeat(51) }, /DOCUMENT_MAX_TEXT_BYTES/);
    refuse({ text: 'x', tags: ['a', 'b', 'c'] }, /DOCUMENT_MAX_TAGS/);
    refuse({ text: 'x', parents: ['a', 'b', 'c'] }, /DOCUMENT_MAX_PARENTS/);
    refuse({}, /exactly one/);
    refuse({ text: 'x', section: { prefix: null, content: null, sections: [] } }, /exactly one/);
    refuse({ text: 'x', sourceUrl: 'javascript:alert(1)' }, /^source_url: /);
    expect(checkDocument('doc', { text: 'é'.repeat(50) }, limits, now).textBytes).toBe(100);
  });
});

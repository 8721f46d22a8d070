import { describe, expect, it } from '@jest/globals';
import { InvalidRequestError } from 'src/platform/errors/domain-error';
import { checkDocument, chunkText, sectionText } from 'src/modules/data-sources/domain/document';

const limits = { maxTextBytes: 100, maxPerDataSource: 10, maxTags: 2, maxParents: 2 };
const now = new Date('2026-01-01T00:00:00Z');

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

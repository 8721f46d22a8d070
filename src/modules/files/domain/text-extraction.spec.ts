import { describe, expect, it } from '@jest/globals';
import { boundText, textLimitOf } from 'src/modules/files/domain/text-extraction';

const limits = { fragmentBudgetBytes: 200, documentMaxTextBytes: 300 };

describe('boundText', () => {
  const limit = textLimitOf('conversation', limits);

  it('keeps a whole text that fits', () => {
    expect(boundText('x'.repeat(200), true, limit)).toBe('x'.repeat(200));
  });

  it('cuts a text past the limit, on a character boundary, with a note inside the limit', () => {
    const text = 'é'.repeat(500);
    const bounded = boundText(text, true, limit);
    expect(Buffer.byteLength(bounded)).toBeLessThanOrEqual(200);
    const [kept, note] = bounded.split('\n\n');
    expect(kept).toBe('é'.repeat(kept.length));
    expect(note).toBe(
      `[Text cut after ${Buffer.byteLength(kept)} bytes: a conversation's files give a model at most 200 bytes of text (CONTENT_FRAGMENT_BUDGET_BYTES).]`,
    );
  });

  it('says a cut when it was given only the start of a longer text, even a short start', () => {
    expect(boundText('abc', false, limit)).toBe(
      "abc\n\n[Text cut after 3 bytes: a conversation's files give a model at most 200 bytes of text (CONTENT_FRAGMENT_BUDGET_BYTES).]",
    );
  });

  it('names the document limit for documents, and the fragment budget for the rest', () => {
    expect(textLimitOf('upsert_document', limits)).toEqual({
      maxBytes: 300,
      reason: 'a document holds at most 300 bytes of text (DOCUMENT_MAX_TEXT_BYTES)',
    });
    expect(textLimitOf('conversation', limits).maxBytes).toBe(200);
  });
});

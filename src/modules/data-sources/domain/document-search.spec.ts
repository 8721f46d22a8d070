import { describe, expect, it } from '@jest/globals';
import {
  ChunkHit,
  FULL_TEXT_ANSWER_MAX_BYTES,
  checkFullTextAnswer,
  checkSearchQuery,
  checkTopK,
  groupHits,
  restrictedSpacesOf,
} from 'src/modules/data-sources/domain/document-search';

const hit = (dataSourceId: number, documentId: string, score: number): ChunkHit => ({
  dataSourceId,
  documentId,
  title: documentId.toUpperCase(),
  sourceUrl: null,
  tags: [],
  parents: [documentId],
  text: `${documentId}@${score}`,
  chunkHash: `hash of ${documentId}@${score}`,
  offset: 0,
  score,
});

describe('grouping hits', () => {
  it('keeps the best top_k chunks, grouped by document, best document first', () => {
    const grouped = groupHits(
      [hit(1, 'a', 0.1), hit(1, 'b', 0.5), hit(1, 'a', 0.3), hit(2, 'a', 0.2), hit(1, 'c', 0.05)],
      4,
    );
    expect(grouped.map((document) => [document.documentId, document.score, document.chunks.length])).toEqual([
      ['b', 0.5, 1],
      ['a', 0.3, 2],
      ['a', 0.2, 1],
    ]);
    expect(grouped[1].chunks.map((chunk) => chunk.hash)).toEqual(['hash of a@0.3', 'hash of a@0.1']);
  });

  it('refuses a blank query and top_k outside 1 to 64', () => {
    expect(checkSearchQuery('  refunds ')).toBe('refunds');
    expect(() => checkSearchQuery(' ')).toThrow(/^query: /);
    expect(() => checkSearchQuery(undefined)).toThrow(/^query: /);
    expect(checkTopK(64)).toBe(64);
    for (const bad of [0, 65, 1.5, Number.NaN]) expect(() => checkTopK(bad)).toThrow(/^top_k: /);
  });
});

describe('the restricted spaces documents belong to', () => {
  const view = (spaceSId: string, parentsIn: string[] | null, openToAll = false) => ({
    dataSourceId: 1,
    parentsIn,
    spaceSId,
    openToAll,
  });
  const secret = { dataSourceId: 1, parents: ['secret', 'board'] };
  const published = { dataSourceId: 1, parents: ['published', 'public'] };

  it('names the restricted spaces whose views show a document, each once, sorted', () => {
    const views = [view('vlt_b', null), view('vlt_a', ['board']), view('vlt_c', ['public'])];
    expect(restrictedSpacesOf([secret], views)).toEqual(['vlt_a', 'vlt_b']);
    expect(restrictedSpacesOf([secret, published], views)).toEqual(['vlt_a', 'vlt_b', 'vlt_c']);
  });

  it('names none for a document that a view of a space open to all shows', () => {
    const views = [view('vlt_board', null), view('vlt_global', ['public'], true)];
    expect(restrictedSpacesOf([published], views)).toEqual([]);
    expect(restrictedSpacesOf([secret, published], views)).toEqual(['vlt_board']);
  });

  it('ignores the views of other data sources, and has nothing to say of no document', () => {
    const views = [{ ...view('vlt_other', null), dataSourceId: 2 }, view('vlt_board', null)];
    expect(restrictedSpacesOf([secret], views)).toEqual(['vlt_board']);
    expect(restrictedSpacesOf([], views)).toEqual([]);
  });
});

describe('a full_text answer', () => {
  it(`answers up to ${FULL_TEXT_ANSWER_MAX_BYTES} bytes of text, and says how to narrow a larger one`, () => {
    expect(() => checkFullTextAnswer([{ textBytes: FULL_TEXT_ANSWER_MAX_BYTES }])).not.toThrow();
    expect(() =>
      checkFullTextAnswer([{ textBytes: FULL_TEXT_ANSWER_MAX_BYTES - 1 }, { textBytes: 2 }]),
    ).toThrow(/^full_text: the 2 documents found hold 16777217 bytes .*lower top_k/);
  });
});

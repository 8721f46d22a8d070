import { describe, expect, it } from '@jest/globals';
import {
  ChunkHit,
  checkSearchQuery,
  checkTopK,
  groupHits,
} from 'src/modules/data-sources/domain/document-search';

const hit = (dataSourceId: number, documentId: string, score: number): ChunkHit => ({
  dataSourceId,
  documentId,
  title: documentId.toUpperCase(),
  sourceUrl: null,
  tags: [],
  text: `${documentId}@${score}`,
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
  });

  it('refuses a blank query and top_k outside 1 to 64', () => {
    expect(checkSearchQuery('  refunds ')).toBe('refunds');
    expect(() => checkSearchQuery(' ')).toThrow(/^query: /);
    expect(() => checkSearchQuery(undefined)).toThrow(/^query: /);
    expect(checkTopK(64)).toBe(64);
    for (const bad of [0, 65, 1.5, Number.NaN]) expect(() => checkTopK(bad)).toThrow(/^top_k: /);
  });
});

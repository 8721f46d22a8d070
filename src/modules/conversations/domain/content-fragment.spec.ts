import { describe, expect, it } from '@jest/globals';
import { checkFragmentInput, fitToBudget } from 'src/modules/conversations/domain/content-fragment';

const fragment = (text: string) => ({ text, textBytes: Buffer.byteLength(text) });

describe('content fragments', () => {
  it('keeps texts that fit, cuts the first that does not on a character boundary, saying so, and empties the rest', () => {
    const [a, b, c] = fitToBudget([fragment('abcd'), fragment('ééé'), fragment('gone')], 7);
    expect(a.text).toBe('abcd');
    expect(b.text).toBe(
      "é\n[Content cut: 2 of 6 bytes shown; the conversation's content fragments may give the model 7 bytes in all.]",
    );
    expect(c.text).toMatch(/^\[Content cut: 0 of 4 bytes shown/);
  });

  it('takes a file or inline text, not both and not neither', () => {
    expect(checkFragmentInput({ title: 't', fileId: 'fil_1' }, '')).toEqual({
      title: 't',
      fileId: 'fil_1',
      sourceUrl: null,
      author: null,
    });
    expect(() =>
      checkFragmentInput({ title: 't', fileId: 'fil_1', content: 'x' }, 'contentFragments.0.'),
    ).toThrow(/contentFragments.0: give fileId/);
    expect(() =>
      checkFragmentInput({ title: 't', content: 'x'.repeat(600 * 1024), contentType: 'text/plain' }, ''),
    ).toThrow(/above the 524288 bytes/);
  });

  it('takes a data source document by nodeId with its view, and nothing else with it', () => {
    expect(checkFragmentInput({ title: 't', nodeId: 'refunds', nodeDataSourceViewId: 'dsv_1' }, '')).toEqual({
      title: 't',
      nodeId: 'refunds',
      nodeDataSourceViewId: 'dsv_1',
      sourceUrl: null,
      author: null,
    });
    expect(() => checkFragmentInput({ title: 't', nodeId: 'refunds' }, 'contentFragment.')).toThrow(
      /contentFragment.nodeId, contentFragment.nodeDataSourceViewId: give both/,
    );
    for (const extra of [
      { fileId: 'fil_1' },
      { content: 'x', contentType: 'text/plain' },
      { url: 'https://x.y' },
    ]) {
      expect(() =>
        checkFragmentInput({ title: 't', nodeId: 'refunds', nodeDataSourceViewId: 'dsv_1', ...extra }, ''),
      ).toThrow(/^body: a data source document \(nodeId\) comes with nodeDataSourceViewId only/);
    }
  });

  it("keeps a fragment's link and who put it there, each field of its author null when not said", () => {
    expect(
      checkFragmentInput(
        {
          title: 't',
          content: 'x',
          contentType: 'text/plain',
          url: 'https://docs.example.com/plan',
          context: { username: 'ada', email: null },
        },
        '',
      ),
    ).toEqual({
      title: 't',
      content: 'x',
      contentType: 'text/plain',
      sourceUrl: 'https://docs.example.com/plan',
      author: { username: 'ada', fullName: null, email: null, profilePictureUrl: null },
    });
  });
});

import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { chunkAndHash } from 'src/modules/data-sources/application/document-chunking';
import { chunksOf } from 'src/modules/data-sources/domain/document';

describe('chunkAndHash', () => {
  it("gives a long text's chunks and the digest of its whole text, surrogate pairs across slices included", async () => {
    // 👍 is a surrogate pair: with an odd prefix, slices of an even length cut pairs.
    const text = `x${'word 👍 '.repeat(200_000)}`;
    const { chunks, hash } = await chunkAndHash(text);
    expect(hash).toBe(createHash('sha256').update(text).digest('hex'));
    expect(chunks).toEqual([...chunksOf(text)]);
  });

  it('lets the event loop turn while it works on a 20 MB text', async () => {
    // Long enough to need several turns on a fast machine too: a 5 MB text took 25 ms there, two turns.
    const text = 'lorem ipsum dolor sit amet '.repeat(760_000);
    let turns = 0;
    const timer = setInterval(() => (turns += 1), 1);
    await chunkAndHash(text);
    clearInterval(timer);
    // Work done in one go would let no timer run until it ended.
    expect(turns).toBeGreaterThanOrEqual(3);
  });
});

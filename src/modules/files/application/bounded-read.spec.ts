import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { readPrefix, readWhole } from 'src/modules/files/application/bounded-read';

/** `count` chunks of `size` bytes, counting how many were pulled and whether the stream was destroyed. */
function chunks(count: number, size: number) {
  const seen = { pulled: 0, destroyed: false };
  let next = 0;
  const stream = new Readable({
    read() {
      if (next === count) return void this.push(null);
      seen.pulled += 1;
      this.push(Buffer.alloc(size, 97 + (next++ % 26)));
    },
    destroy(error, done) {
      seen.destroyed = true;
      done(error);
    },
  });
  return { stream, seen };
}

describe('readPrefix', () => {
  it('reads a content that fits whole', async () => {
    const { stream } = chunks(3, 10);
    const prefix = await readPrefix(stream, 30);
    expect(prefix.complete).toBe(true);
    expect(prefix.bytes.toString()).toBe('a'.repeat(10) + 'b'.repeat(10) + 'c'.repeat(10));
  });

  it('stops at the limit, inside a chunk, and destroys the rest unread', async () => {
    const { stream, seen } = chunks(10_000, 1024);
    const prefix = await readPrefix(stream, 2_500);
    expect(prefix.complete).toBe(false);
    expect(prefix.bytes.length).toBe(2_500);
    expect(prefix.bytes.subarray(2_048).toString()).toBe('c'.repeat(452));
    expect(seen.destroyed).toBe(true);
    // The stream reads ahead a little (its buffer), never the whole content.
    expect(seen.pulled).toBeLessThan(100);
  });

  it('takes string chunks as UTF-8', async () => {
    const prefix = await readPrefix(Readable.from(['Grüße', ' 👍']), 100);
    expect(prefix).toEqual({ bytes: Buffer.from('Grüße 👍'), complete: true });
  });
});

describe('readWhole', () => {
  it('answers the content up to its limit, and null past it', async () => {
    expect(await readWhole(chunks(2, 5).stream, 10)).toEqual(Buffer.from('aaaaabbbbb'));
    expect(await readWhole(chunks(2, 5).stream, 9)).toBeNull();
  });
});

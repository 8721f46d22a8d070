import type { Readable } from 'node:stream';

/** The first bytes of a content, and whether they are all of it. */
export interface ContentPrefix {
  bytes: Buffer;
  complete: boolean;
}

/**
 * Reads at most `maxBytes` of `content`: more would never be kept. Past them the stream is
 * destroyed, so a large content costs its first bytes only, in time and in memory.
 */
export async function readPrefix(content: Readable, maxBytes: number): Promise<ContentPrefix> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const piece of content as AsyncIterable<Buffer | string>) {
    const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      content.destroy();
      return { bytes: Buffer.concat(chunks, maxBytes), complete: false };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks, size), complete: true };
}

/** The whole content, or null once it has more than `maxBytes` (the stream is then destroyed). */
export async function readWhole(content: Readable, maxBytes: number): Promise<Buffer | null> {
  const { bytes, complete } = await readPrefix(content, maxBytes);
  return complete ? bytes : null;
}

import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type DocumentChunk, chunksOf } from 'src/modules/data-sources/domain/document';

/** Work done in one turn of the event loop before other requests get theirs. */
const TURN_MS = 10;
/** Characters hashed at once (a few milliseconds of work). */
const HASH_SLICE_CHARS = 256 * 1024;

/**
 * A document's chunks and the SHA-256 of its text (UTF-8), computed a slice at a time with turns of
 * the event loop in between: a 5 MB text takes about a hundred milliseconds of work, which must not
 * hold every other request.
 */
export async function chunkAndHash(text: string): Promise<{ chunks: DocumentChunk[]; hash: string }> {
  let turnStarted = performance.now();
  const takeTurn = async () => {
    if (performance.now() - turnStarted < TURN_MS) return;
    await nextTurn();
    turnStarted = performance.now();
  };
  const chunks: DocumentChunk[] = [];
  for (const chunk of chunksOf(text)) {
    chunks.push(chunk);
    await takeTurn();
  }
  const hash = createHash('sha256');
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + HASH_SLICE_CHARS);
    // A surrogate pair stays whole, so the digest is the whole text's.
    if (to < text.length && isHighSurrogate(text.charCodeAt(to - 1))) to -= 1;
    hash.update(text.slice(from, to), 'utf8');
    from = to;
    await takeTurn();
  }
  return { chunks, hash: hash.digest('hex') };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

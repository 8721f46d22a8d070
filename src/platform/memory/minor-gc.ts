import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor'; execution: 'async' }) => Promise<void>;

setFlagsFromString('--expose-gc');
/** V8's collector, reached through a fresh context so the service's own global stays as it was. */
const collect = runInNewContext('gc') as Collect;
setFlagsFromString('--no-expose-gc');

/**
 * Asks V8 for a young-generation collection, in the background. A stream of large chunks
 * allocates little JS per byte, so V8 sees no reason to collect the chunks it has passed on until
 * their bytes outside the heap reach its own threshold (64 MiB): that garbage is what an upload
 * would otherwise add to the process's resident memory.
 */
export function collectYoungGeneration(): void {
  void collect({ type: 'minor', execution: 'async' });
}

import type { Readable } from 'node:stream';

/**
 * The content of an upload request, not read yet: the use case decides whether to read it at all,
 * and caps how much it reads.
 */
export interface UploadSource {
  /**
   * Starts reading and resolves with the file's bytes, as they arrive. At most `maxBytes + 1`
   * bytes flow, so an oversize shows without reading it whole. Rejects when the request does not
   * carry the file as expected; the stream fails when the rest of the request breaks that later.
   */
  open(maxBytes: number): Promise<Readable>;
}

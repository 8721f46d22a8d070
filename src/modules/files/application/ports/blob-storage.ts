import type { Readable } from 'node:stream';

/** Port: where file contents live (a local directory or an S3-compatible bucket). */
export abstract class BlobStorage {
  /**
   * Stores `content` under `key`, reading it as it arrives. Resolves once the whole content is
   * stored; when `content` fails (or storing does), rejects and leaves nothing under `key`.
   */
  abstract write(key: string, content: Readable, contentType: string): Promise<void>;
  /** The content under `key`, or null when there is none. */
  abstract read(key: string): Promise<Readable | null>;
  /** Removes the content under `key`; nothing there is not an error. */
  abstract delete(key: string): Promise<void>;
  /** Marks the partial contents of this process's writes in progress as alive. */
  abstract keepDraftsAlive(now: Date): Promise<void>;
  /**
   * Removes partial contents no write has marked alive since `aliveSince`: what a process killed
   * during a write left behind. Returns how many it removed.
   */
  abstract removeAbandonedDrafts(aliveSince: Date): Promise<number>;
}

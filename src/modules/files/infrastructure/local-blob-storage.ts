import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';

/** Keys are ours (`<workspace>/<file sId>`); anything else could climb out of the directory. */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/**
 * Blobs as files under a directory (`DATA_DIR/files`). A write goes to a temporary file, flushed
 * to disk, then renamed into place: a reader sees the whole content or nothing.
 */
export class LocalBlobStorage extends BlobStorage {
  /** Same file system as the blobs, so the final rename is atomic. */
  private readonly incoming: string;

  constructor(private readonly root: string) {
    super();
    this.incoming = join(root, '.incoming');
  }

  async write(key: string, content: Readable): Promise<void> {
    const target = this.pathOf(key);
    const draft = join(this.incoming, randomUUID());
    await Promise.all([
      mkdir(this.incoming, { recursive: true }),
      mkdir(dirname(target), { recursive: true }),
    ]);
    try {
      await pipeline(content, createWriteStream(draft, { flags: 'wx', mode: 0o600, flush: true }));
      await rename(draft, target);
    } catch (error) {
      await rm(draft, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Readable | null> {
    try {
      // Opened here, so a missing blob is known before any byte of the answer is sent.
      const handle = await open(this.pathOf(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`Unsafe blob key "${key}"`);
    return join(this.root, key);
  }
}

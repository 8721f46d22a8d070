import { randomUUID } from 'node:crypto';
import { FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobStorage } from 'src/modules/files/application/ports/blob-storage';

/** Keys are ours (`<workspace>/<file sId>`); anything else could climb out of the directory. */
const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** Bytes written between two flushes to disk in the background, so the last one has little left. */
const SYNC_EVERY_BYTES = 16 * 1024 * 1024;

/**
 * Writes a stream to a file and has it on disk when it finishes: flushes run in the background
 * while writing goes on, instead of one long flush of the whole content at the end.
 */
class DurableFileWriter extends Writable {
  private unsynced = 0;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly handle: FileHandle) {
    super({ highWaterMark: 1024 * 1024 });
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.handle.writev(chunks.map(({ chunk }) => chunk)).then(({ bytesWritten }) => {
      this.unsynced += bytesWritten;
      if (this.unsynced >= SYNC_EVERY_BYTES) {
        this.unsynced = 0;
        this.syncing = this.syncing.then(() => this.handle.datasync());
        // A failed flush fails the write at its end (_final), not as an unhandled rejection.
        this.syncing.catch(() => undefined);
      }
      done();
    }, done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.syncing.then(() => this.handle.datasync()).then(() => done(), done);
  }
}

/**
 * Blobs as files under a directory (`DATA_DIR/files`). A write goes to a temporary file, flushed
 * to disk, then renamed into place: a reader sees the whole content or nothing, and a ready file
 * survives a crash of the machine.
 */
export class LocalBlobStorage extends BlobStorage {
  /** Same file system as the blobs, so the final rename is atomic. */
  private readonly incoming: string;
  /** This process's drafts being written, whose modification time it renews while they are. */
  private readonly drafts = new Set<FileHandle>();

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
    const handle = await open(draft, 'wx', 0o600);
    this.drafts.add(handle);
    try {
      await pipeline(content, new DurableFileWriter(handle));
      this.drafts.delete(handle);
      await handle.close();
      await rename(draft, target);
    } catch (error) {
      this.drafts.delete(handle);
      await handle.close().catch(() => undefined);
      await rm(draft, { force: true });
      throw error;
    }
  }

  async keepDraftsAlive(now: Date): Promise<void> {
    // A draft may close meanwhile: its write then owns it, and a failed touch means nothing.
    await Promise.all([...this.drafts].map((handle) => handle.utimes(now, now).catch(() => undefined)));
  }

  async removeAbandonedDrafts(aliveSince: Date): Promise<number> {
    const names = await readdir(this.incoming).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const path = join(this.incoming, name);
      const modified = await stat(path).then(
        (stats) => stats.mtime,
        () => null,
      );
      if (modified === null || modified >= aliveSince) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
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

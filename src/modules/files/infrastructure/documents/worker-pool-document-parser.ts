import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Piscina } from 'piscina';
import { DocumentKind, DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileTooLarge } from 'src/modules/files/domain/files.errors';
import { DocumentParsingSettings, FilesConfig } from 'src/modules/files/files.config';
import type { TextLimit } from 'src/modules/files/domain/text-extraction';
import type { ParseOutcome, ParseTask } from 'src/modules/files/infrastructure/documents/parse-task';

/** The parser threads' module, built beside this one. */
const WORKER_FILE = join(__dirname, 'document-parser.worker.js');

/** A parser thread without work for this long ends, giving its memory back. */
const IDLE_THREAD_MS = 60_000;
/** Parser threads run at a lower priority (Unix nice) than the event loop, which keeps answering while they work. */
const PARSER_NICENESS = 10;

/**
 * Parses untrusted documents in worker threads, never on the event loop: each thread has a heap
 * limit, each document a wall-clock limit (its thread is ended when it passes it), and the parsers
 * check pages and uncompressed sizes before the work they bound. A document's bytes are read only
 * when a thread is free for it, so documents waiting their turn hold no memory.
 */
@Injectable()
export class WorkerPoolDocumentParser extends DocumentParser implements OnApplicationShutdown {
  private readonly settings: DocumentParsingSettings;
  private readonly pool: Piscina<ParseTask, ParseOutcome>;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(config: FilesConfig) {
    super();
    this.settings = config.parsing;
    this.pool = new Piscina({
      filename: WORKER_FILE,
      name: 'parseDocument',
      minThreads: 0,
      maxThreads: this.settings.threads,
      idleTimeout: IDLE_THREAD_MS,
      niceIncrement: PARSER_NICENESS,
      resourceLimits: { maxOldGenerationSizeMb: this.settings.heapMb },
    });
  }

  async text(kind: DocumentKind, open: () => Promise<Readable>, limit: TextLimit): Promise<string> {
    await this.takeTurn();
    try {
      const bytes = await readTransferable(await open());
      const outcome = await this.pool
        .run(
          {
            kind,
            bytes,
            limit,
            docxMaxUnzippedBytes: this.settings.docxMaxUnzippedBytes,
            pdfMaxPages: this.settings.pdfMaxPages,
          },
          { signal: AbortSignal.timeout(this.settings.timeoutMs), transferList: [bytes.buffer] },
        )
        .catch((error: unknown) => {
          throw this.limitPassed(kind, error) ?? error;
        });
      if ('overLimit' in outcome) throw new FileTooLarge(outcome.overLimit);
      return outcome.text;
    } finally {
      this.endTurn();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }

  /** The limit a failed parse ran into (its thread was ended), or null for a document that is not readable. */
  private limitPassed(kind: DocumentKind, error: unknown): FileTooLarge | null {
    const name = kind.toUpperCase();
    if (error instanceof Error && error.name === 'AbortError') {
      return new FileTooLarge(
        `Reading this ${name} file took longer than DOCUMENT_PARSE_TIMEOUT_MS allows (${this.settings.timeoutMs} ms).`,
      );
    }
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new FileTooLarge(
        `Reading this ${name} file needs more memory than DOCUMENT_PARSE_HEAP_MB allows (${this.settings.heapMb} MiB).`,
      );
    }
    return null;
  }

  private async takeTurn(): Promise<void> {
    if (this.running < this.settings.threads) {
      this.running += 1;
      return;
    }
    // The thread that ends hands its turn over (`running` stays the same).
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private endTurn(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** The content in one buffer of its own, which can be moved to a thread without a copy. */
async function readTransferable(content: Readable): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of content as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DocumentParsingSettings, FilesConfig } from 'src/modules/files/files.config';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { DocumentKind, DocumentParser } from 'src/modules/files/application/ports/document-parser';
import { FileTooLarge } from 'src/modules/files/domain/files.errors';
import type { TextLimit } from 'src/modules/files/domain/text-extraction';
import {
  ParserProcessFailed,
  ParserProcessPool,
} from 'src/modules/files/infrastructure/documents/parser-process-pool';

/** The parser processes' script, built beside this module (in `dist` and `dist-test` alike). */
const PARSER_SCRIPT = join(__dirname, 'document-parser.process.js');

/** A parser process without work for this long ends, giving its memory back. */
const IDLE_PROCESS_MS = 60_000;
/** Parser processes run at a lower priority (Unix nice) than the service, whose event loop keeps answering. */
const PARSER_NICENESS = 10;

/**
 * Parses untrusted documents in child processes, never in the service's process: each process has
 * a heap limit, each document a wall-clock limit (its process is killed when it passes it), and the
 * parsers check pages and uncompressed sizes before the work they bound. A process that dies, of
 * its heap or otherwise, takes only its own document with it.
 */
@Injectable()
export class ProcessPoolDocumentParser extends DocumentParser implements OnApplicationShutdown {
  private readonly settings: DocumentParsingSettings;
  private readonly pool: ParserProcessPool;

  constructor(
    config: FilesConfig,
    private readonly log: OperatorLog,
  ) {
    super();
    this.settings = config.parsing;
    this.pool = new ParserProcessPool({
      modulePath: PARSER_SCRIPT,
      processes: this.settings.processes,
      heapMb: this.settings.heapMb,
      timeoutMs: this.settings.timeoutMs,
      idleMs: IDLE_PROCESS_MS,
      niceness: PARSER_NICENESS,
    });
  }

  async text(kind: DocumentKind, open: () => Promise<Readable>, limit: TextLimit): Promise<string> {
    const outcome = await this.pool
      .run(
        {
          kind,
          limit,
          docxMaxUnzippedBytes: this.settings.docxMaxUnzippedBytes,
          pdfMaxPages: this.settings.pdfMaxPages,
        },
        open,
      )
      .catch((error: unknown) => {
        throw this.limitPassed(kind, error) ?? error;
      });
    if ('overLimit' in outcome) throw new FileTooLarge(outcome.overLimit);
    if ('unreadable' in outcome) throw new Error(outcome.unreadable);
    return outcome.text;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }

  /** The limit a parse ran into (its process was ended), or null when the document is not readable. */
  private limitPassed(kind: DocumentKind, error: unknown): FileTooLarge | null {
    if (!(error instanceof ParserProcessFailed) || error.reason === 'shutdown') return null;
    this.log.warn(
      ProcessPoolDocumentParser.name,
      { kind, reason: error.reason, detail: error.message },
      'A document parser process was ended',
    );
    const name = kind.toUpperCase();
    if (error.reason === 'timeout') {
      return new FileTooLarge(
        `Reading this ${name} file took longer than DOCUMENT_PARSE_TIMEOUT_MS allows (${this.settings.timeoutMs} ms).`,
      );
    }
    if (error.reason === 'heap') {
      return new FileTooLarge(
        `Reading this ${name} file needs more memory than DOCUMENT_PARSE_HEAP_MB allows (${this.settings.heapMb} MiB).`,
      );
    }
    return null;
  }
}

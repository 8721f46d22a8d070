import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FilesConfig } from 'src/modules/files/files.config';
import type { OperatorLog } from 'src/platform/logging/operator-log';
import { ParserProcessPool } from 'src/modules/files/infrastructure/documents/parser-process-pool';
import { ProcessPoolDocumentParser } from 'src/modules/files/infrastructure/documents/process-pool-document-parser';
import { docxBombOf, docxOf, pdfOf } from 'test/support/documents';
import { untilTrue } from 'test/support/until';

const MIB = 1024 * 1024;
const limit = { maxBytes: 1024, reason: 'test' };
const open = (bytes: Buffer) => async () => Readable.from([bytes]);
/** 200,000 pages (30 MB) take pdf.js tens of seconds, longer than the time limit below. */
const longPdf = pdfOf(['page'], 200_000);
/**
 * Parser processes run niced: on a machine whose cores are taken by other work they get a small
 * share of them, so the tests that do not measure time leave documents minutes.
 */
const UNHURRIED = { DOCUMENT_PARSE_TIMEOUT_MS: '240000' };

interface ParserProcess {
  pid: number;
  argv: string[];
  nice: number;
}

/**
 * This process's children that run the document parser, from /proc (Linux). Read synchronously: a
 * scan of every process's `stat` takes milliseconds so, where awaiting each read took the CPU the
 * parsers under test need.
 */
function parserProcesses(): ParserProcess[] {
  const found: ParserProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // After the command's name in parentheses: state, ppid, … nice is the 17th field from there.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid) continue;
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (argv.some((arg) => arg.endsWith('document-parser.process.js'))) {
        found.push({ pid: Number(entry), argv, nice: Number(fields[16]) });
      }
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}

/** Every parser process seen while `work` runs, sampled every 100 ms, and the most seen at once. */
async function watchParsers<T>(
  work: Promise<T>,
): Promise<{ seen: Map<number, ParserProcess>; most: number }> {
  const seen = new Map<number, ParserProcess>();
  let most = 0;
  let done = false;
  const settled = work.finally(() => (done = true)).catch(() => undefined);
  while (!done) {
    const now = parserProcesses();
    most = Math.max(most, now.length);
    for (const parser of now) seen.set(parser.pid, parser);
    // Samples the operating system's processes, which no clock of ours drives, until the work ends.
    await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  return { seen, most };
}

function parserWith(env: Record<string, string>) {
  const warnings: Record<string, unknown>[] = [];
  const log = {
    info: () => undefined,
    warn: (_context: string, fields: Record<string, unknown>) => warnings.push(fields),
    error: () => undefined,
  } as unknown as OperatorLog;
  return { parser: new ProcessPoolDocumentParser(FilesConfig.from(env), log), warnings };
}

describe('ProcessPoolDocumentParser', () => {
  it('parses in child processes of its own Node, each under the heap limit, at most DOCUMENT_PARSE_PROCESSES at once', async () => {
    const { parser } = parserWith({
      ...UNHURRIED,
      DOCUMENT_PARSE_PROCESSES: '2',
      DOCUMENT_PARSE_HEAP_MB: '96',
    });
    try {
      const documents = Array.from({ length: 5 }, (_, i) => docxOf([`Document ${i}`]));
      const parsed = Promise.all(documents.map((docx) => parser.text('docx', open(docx), limit)));
      const { seen, most } = await watchParsers(parsed);
      expect(await parsed).toEqual(['Document 0', 'Document 1', 'Document 2', 'Document 3', 'Document 4']);
      expect(most).toBeGreaterThanOrEqual(1);
      expect(most).toBeLessThanOrEqual(2);
      for (const child of seen.values()) {
        expect(child.argv[0]).toBe(process.execPath);
        expect(child.argv).toContain('--max-old-space-size=96');
        // Below this process's priority, so the service's event loop goes first.
        expect(child.nice).toBeGreaterThan(getPriority());
      }
    } finally {
      await parser.onApplicationShutdown();
    }
    expect(parserProcesses()).toEqual([]);
  });

  it('kills a parse that passes DOCUMENT_PARSE_TIMEOUT_MS, naming it, and the next document waiting parses in a new process', async () => {
    const { parser, warnings } = parserWith({
      DOCUMENT_PARSE_PROCESSES: '1',
      // Long enough for the next document even with a small share of the machine; the heap, ample.
      DOCUMENT_PARSE_TIMEOUT_MS: '15000',
      DOCUMENT_PARSE_HEAP_MB: '4096',
      PDF_MAX_PAGES: '1000000',
    });
    try {
      // Longer than the time limit on a fast machine too: 200,000 pages parsed within 15 s on one.
      const slow = parser.text('pdf', open(pdfOf(['page'], 600_000)), limit);
      // Waits for the only process, then gets a new one.
      const next = parser.text('docx', open(docxOf(['Still here'])), limit);
      const slowOutcome = slow.then(
        () => 'parsed',
        (error: Error) => error,
      );
      const { seen, most } = await watchParsers(Promise.all([slowOutcome, next]));
      expect(await slowOutcome).toMatchObject({
        code: 'file_too_large',
        message: 'Reading this PDF file took longer than DOCUMENT_PARSE_TIMEOUT_MS allows (15000 ms).',
      });
      expect(await next).toBe('Still here');
      expect(most).toBe(1);
      const [killed] = seen.keys();
      // The killed process is gone; the document after it was parsed by a new one, now idle.
      const idle = parserProcesses().map((child) => child.pid);
      expect(idle).toHaveLength(1);
      expect(idle).not.toContain(killed);
      expect(warnings).toEqual([
        { kind: 'pdf', reason: 'timeout', detail: 'Ended at its time limit (signal SIGKILL).' },
      ]);
    } finally {
      await parser.onApplicationShutdown();
    }
  });

  it('fails a document that exhausts the heap, naming DOCUMENT_PARSE_HEAP_MB, while this process goes on and the next document parses', async () => {
    const { parser, warnings } = parserWith({
      ...UNHURRIED,
      DOCUMENT_PARSE_PROCESSES: '1',
      DOCUMENT_PARSE_HEAP_MB: '64',
    });
    // A genuine document within DOCX_MAX_UNZIPPED_MB (8): 6 MiB of XML need about 200 MiB of mammoth's heap.
    const large = docxBombOf(6 * MIB);
    try {
      await expect(parser.text('docx', open(large), limit)).rejects.toMatchObject({
        code: 'file_too_large',
        message: 'Reading this DOCX file needs more memory than DOCUMENT_PARSE_HEAP_MB allows (64 MiB).',
      });
      expect(warnings).toEqual([
        { kind: 'docx', reason: 'heap', detail: 'Ran out of heap (signal SIGABRT).' },
      ]);
      expect(await parser.text('docx', open(docxOf(['Next one'])), limit)).toBe('Next one');
      expect(await parser.text('pdf', open(pdfOf(['And a PDF'])), limit)).toBe('And a PDF');
    } finally {
      await parser.onApplicationShutdown();
    }
  });

  it('refuses as unreadable a document whose process is killed from outside, and goes on with a new process', async () => {
    const { parser, warnings } = parserWith({
      ...UNHURRIED,
      DOCUMENT_PARSE_PROCESSES: '1',
      PDF_MAX_PAGES: '1000000',
    });
    try {
      const killed = parser.text('pdf', open(longPdf), limit).then(
        () => 'parsed',
        (error: Error) => error,
      );
      await untilTrue(() => parserProcesses().length > 0, 30_000);
      const [victim] = parserProcesses();
      // As the kernel's out-of-memory killer would.
      process.kill(victim.pid, 'SIGKILL');
      const error = await killed;
      // Not a limit of the parser's: the file is refused as unreadable (FileTextsService).
      expect(error).toMatchObject({ message: 'Ended unexpectedly (signal SIGKILL).' });
      expect(error).not.toHaveProperty('code');
      expect(warnings).toEqual([
        { kind: 'pdf', reason: 'crash', detail: 'Ended unexpectedly (signal SIGKILL).' },
      ]);
      expect(await parser.text('docx', open(docxOf(['Replaced'])), limit)).toBe('Replaced');
      expect(parserProcesses().map((child) => child.pid)).not.toContain(victim.pid);
    } finally {
      await parser.onApplicationShutdown();
    }
  });

  it('fails a document whose bytes cannot be read from storage with that error, and parses the next one', async () => {
    const { parser } = parserWith({ ...UNHURRIED, DOCUMENT_PARSE_PROCESSES: '1' });
    try {
      await expect(
        parser.text(
          'pdf',
          async () => {
            throw new Error('No such blob');
          },
          limit,
        ),
      ).rejects.toThrow('No such blob');
      const cut = async function* () {
        yield longPdf.subarray(0, 64 * 1024);
        throw new Error('Connection reset');
      };
      await expect(parser.text('pdf', async () => Readable.from(cut()), limit)).rejects.toThrow(
        'Connection reset',
      );
      expect(await parser.text('docx', open(docxOf(['Whole'])), limit)).toBe('Whole');
    } finally {
      await parser.onApplicationShutdown();
    }
  });

  it('ends a process idle for its idle time, and starts a new one for the next document', async () => {
    const pool = new ParserProcessPool({
      modulePath: join(__dirname, 'document-parser.process.js'),
      processes: 1,
      heapMb: 128,
      timeoutMs: 240_000,
      idleMs: 500,
      niceness: 10,
    });
    const task = { kind: 'docx' as const, limit, docxMaxUnzippedBytes: MIB, pdfMaxPages: 1 };
    try {
      expect(await pool.run(task, open(docxOf(['First'])))).toEqual({ text: 'First' });
      const [first] = parserProcesses();
      expect(first).toBeDefined();
      await untilTrue(() => parserProcesses().length === 0, 30_000);
      expect(await pool.run(task, open(docxOf(['Second'])))).toEqual({ text: 'Second' });
      expect(parserProcesses().map((child) => child.pid)).not.toContain(first.pid);
    } finally {
      await pool.close();
    }
  });

  it('refuses documents once shut down', async () => {
    const { parser } = parserWith(UNHURRIED);
    expect(await parser.text('docx', open(docxOf(['Before'])), limit)).toBe('Before');
    await parser.onApplicationShutdown();
    await expect(parser.text('docx', open(docxOf(['After'])), limit)).rejects.toThrow(
      'The document parsers are stopped.',
    );
    expect(parserProcesses()).toEqual([]);
  });
});

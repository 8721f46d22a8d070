import { type ChildProcess, fork } from 'node:child_process';
import { getPriority, setPriority } from 'node:os';
import type { Readable } from 'node:stream';
import type {
  ParseOutcome,
  ParserMessage,
  ParserReply,
  ParseTask,
} from 'src/modules/files/infrastructure/documents/parse-task';

export interface ParserProcessPoolOptions {
  /** The script each process runs (built JavaScript: `document-parser.process.js`). */
  modulePath: string;
  /** Processes at most, so documents parsed at once; more wait their turn. */
  processes: number;
  /** V8 heap (old generation) of each process, in MiB. */
  heapMb: number;
  /** Wall-clock limit of one document, from its first byte to its outcome; and of a new process's start. */
  timeoutMs: number;
  /** A process without work for this long ends, giving its memory back. */
  idleMs: number;
  /** Unix niceness added to each process, so the service's event loop goes first. */
  niceness: number;
}

export type ParserEnd = 'timeout' | 'heap' | 'crash' | 'shutdown';

/** A parse that ended without an outcome, because its process ended: the reason says why. */
export class ParserProcessFailed extends Error {
  constructor(
    readonly reason: ParserEnd,
    message: string,
  ) {
    super(message);
  }
}

/** V8 prints this on stderr when a heap passes its limit, then aborts the process. */
const HEAP_EXHAUSTED = 'JavaScript heap out of memory';

/**
 * A small pool of forked Node processes that parse untrusted documents, one document per process at
 * a time. A process that passes its heap limit or its wall-clock limit, or crashes, ends alone (the
 * service goes on) and the next turn starts a new one. Processes run on the service's own Node
 * (`process.execPath`) with an empty environment, so a parser holds none of the service's secrets.
 */
export class ParserProcessPool {
  private readonly idle: ParserProcess[] = [];
  private readonly waiting: { resolve: (parser: ParserProcess) => void; reject: (e: Error) => void }[] = [];
  private readonly live = new Set<ParserProcess>();
  private closed = false;

  constructor(private readonly options: ParserProcessPoolOptions) {}

  /**
   * The outcome of `task` on the bytes `open` reads, opened only once a process is free for it (a
   * document waiting its turn holds no memory). Throws `ParserProcessFailed` when its process had
   * to end, or the error of reading the bytes.
   */
  async run(task: ParseTask, open: () => Promise<Readable>): Promise<ParseOutcome> {
    const parser = await this.take();
    try {
      return await parser.parse(task, open, this.options.timeoutMs);
    } finally {
      this.giveBack(parser);
    }
  }

  /** Ends every process: parses under way and waiting ones fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const turn of this.waiting.splice(0)) turn.reject(stopped());
    await Promise.all([...this.live].map((parser) => parser.end('shutdown')));
  }

  private take(): Promise<ParserProcess> {
    if (this.closed) return Promise.reject(stopped());
    // An idle process whose time is up may still be ending: its turn passes on when it has.
    let reused = this.idle.pop();
    while (reused && !reused.usable) reused = this.idle.pop();
    if (reused) return Promise.resolve(reused.wake());
    if (this.live.size < this.options.processes) return Promise.resolve(this.spawn());
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private giveBack(parser: ParserProcess): void {
    // A process being ended hands its turn over once it has (see `spawn`).
    if (!parser.usable) return;
    const next = this.waiting.shift();
    if (next) next.resolve(parser);
    else this.idle.push(parser.rest(this.options.idleMs));
  }

  private spawn(): ParserProcess {
    const parser = new ParserProcess(this.options, () => {
      this.live.delete(parser);
      const idleAt = this.idle.indexOf(parser);
      if (idleAt >= 0) this.idle.splice(idleAt, 1);
      const next = this.waiting.shift();
      if (next) next.resolve(this.spawn());
    });
    this.live.add(parser);
    return parser;
  }
}

function stopped(): ParserProcessFailed {
  return new ParserProcessFailed('shutdown', 'The document parsers are stopped.');
}

/** One forked parser, and the document it is reading if any. */
class ParserProcess {
  private readonly child: ChildProcess;
  private ending = false;
  private endedFor: ParserEnd | null = null;
  private heapExhausted = false;
  private readonly closed: Promise<void>;
  private readonly ready: Promise<void>;
  private idleTimer: NodeJS.Timeout | undefined;
  private settle: ((outcome: ParseOutcome | ParserProcessFailed) => void) | null = null;

  constructor(options: ParserProcessPoolOptions, onClosed: () => void) {
    this.child = fork(options.modulePath, [], {
      execPath: process.execPath,
      // The heap limit only: the service's own flags (inspector, profiler, test runner's) stay its own.
      execArgv: [`--max-old-space-size=${options.heapMb}`],
      env: {},
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    if (this.child.pid !== undefined) lowerPriority(this.child.pid, options.niceness);
    let carry = '';
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (text: string) => {
      this.heapExhausted ||= (carry + text).includes(HEAP_EXHAUSTED);
      carry = text.slice(-HEAP_EXHAUSTED.length);
    });
    let started: () => void;
    this.ready = new Promise((resolve) => (started = resolve));
    this.child.on('message', (reply: ParserReply) => {
      if ('ready' in reply) started();
      else this.settle?.(reply.outcome);
    });
    // A spawn or channel error ends the process; its `close` ends the parse.
    this.child.on('error', () => this.kill());
    this.closed = new Promise((resolve) =>
      this.child.once('close', (code, signal) => {
        this.ending = true;
        clearTimeout(this.idleTimer);
        this.settle?.(this.failure(code, signal));
        onClosed();
        resolve();
      }),
    );
  }

  /** Whether it can take another document. */
  get usable(): boolean {
    return !this.ending;
  }

  wake(): this {
    clearTimeout(this.idleTimer);
    this.child.ref();
    this.child.channel?.ref();
    return this;
  }

  /** Idle, it keeps nothing of the service's running (a CLI that parsed a document may exit). */
  rest(idleMs: number): this {
    this.idleTimer = setTimeout(() => void this.end('shutdown'), idleMs).unref();
    this.child.unref();
    this.child.channel?.unref();
    return this;
  }

  async parse(task: ParseTask, open: () => Promise<Readable>, timeoutMs: number): Promise<ParseOutcome> {
    const settled = new Promise<ParseOutcome | ParserProcessFailed>((resolve) => (this.settle = resolve));
    const expire = () => {
      this.endedFor ??= 'timeout';
      this.kill();
    };
    // A new process's start (loading the parsing libraries) has a limit of its own, not the document's.
    let timer = setTimeout(expire, timeoutMs);
    let content: Readable | undefined;
    let midDocument = false;
    const feed = async () => {
      await this.ready;
      clearTimeout(timer);
      timer = setTimeout(expire, timeoutMs);
      content = await open();
      if (!(midDocument = await this.send({ task }))) return;
      for await (const chunk of content as AsyncIterable<Buffer>) {
        if (!(await this.send({ chunk }))) return;
      }
      await this.send({ end: true });
    };
    try {
      const outcome = await Promise.race([
        settled,
        feed().then(
          () => settled,
          (error: unknown) => {
            // Bytes that stop coming leave the process mid-document: it is ended, and the error is the parse's.
            if (midDocument) this.kill();
            throw error;
          },
        ),
      ]);
      if (outcome instanceof ParserProcessFailed) throw outcome;
      return outcome;
    } finally {
      clearTimeout(timer);
      this.settle = null;
      content?.destroy();
    }
  }

  async end(reason: ParserEnd): Promise<void> {
    this.endedFor ??= reason;
    this.kill();
    await this.closed;
  }

  private kill(): void {
    if (this.ending) return;
    this.ending = true;
    this.child.kill('SIGKILL');
  }

  /** False when the message could not be sent: the process is ending, and its `close` tells why. */
  private send(message: ParserMessage): Promise<boolean> {
    if (this.ending) return Promise.resolve(false);
    return new Promise((resolve) =>
      this.child.send(message, (error) => {
        if (error) this.kill();
        resolve(!error);
      }),
    );
  }

  private failure(code: number | null, signal: string | null): ParserProcessFailed {
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    if (this.endedFor === 'timeout')
      return new ParserProcessFailed('timeout', `Ended at its time limit (${how}).`);
    if (this.heapExhausted) return new ParserProcessFailed('heap', `Ran out of heap (${how}).`);
    if (this.endedFor === 'shutdown') return new ParserProcessFailed('shutdown', `Stopped (${how}).`);
    return new ParserProcessFailed('crash', `Ended unexpectedly (${how}).`);
  }
}

/** Best effort: where the system refuses it, documents are parsed at the service's priority. */
function lowerPriority(pid: number, niceness: number): void {
  try {
    setPriority(pid, Math.min(19, getPriority() + niceness));
  } catch {
    // Raising a child's niceness needs no privilege on Linux; other systems may refuse it.
  }
}

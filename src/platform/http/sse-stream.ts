import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { SseConfig } from 'src/platform/http/sse.config';

export interface SseEvent {
  /** Position in the log (a 64-bit integer). */
  id: bigint;
  /** The whole `id:`/`data:` block, serialised once however many streams send it. */
  frame: string;
  /** `frame` as one HTTP/1.1 chunk, framed once too. */
  chunk: string;
  /** The stream ends once it has sent this event (an agent message's outcome ends its stream). */
  last?: boolean;
}

function asChunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

/** An SSE block (`id:`/`data:` lines and a blank line) as an event, its chunk framed once. */
export function framedEvent(id: bigint, frame: string, last?: boolean): SseEvent {
  return { id, frame, chunk: asChunk(frame), last };
}

/** An event as an SSE block; `data` must serialise to one line (JSON does). */
export function sseEvent(id: bigint, data: unknown): SseEvent {
  return framedEvent(id, `id: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** How a family of streams writes its events; streams of the same framing share their reads. */
export interface SseFraming<Data = unknown> {
  /** Tells framings apart in the keys of shared reads. */
  name: string;
  frame(id: bigint, data: Data): SseEvent;
}

/** The specification's framing (endpoint 7): `data:` holds the event itself. */
export const SPEC_FRAMING: SseFraming = { name: 'spec', frame: sseEvent };

const PING = ': ping\n\n';
const PING_CHUNK = asChunk(PING);

export interface SseSource {
  /** Events after `afterId`, oldest first, at most `limit`. */
  read(afterId: bigint, limit: number): Promise<SseEvent[]>;
  /** Calls `ring` when new events may exist; returns the unsubscribe. */
  subscribe(ring: () => void): () => void;
}

/** Events read from the log at a time. */
export const SSE_BATCH = 200;

/**
 * One Server-Sent-Events connection reading a durable log: it never queues events in memory
 * beyond one batch, writes only when the socket drains, and releases its subscription whichever
 * way it ends (client gone, idle, slow client, shutdown, error). It owns no timer: SseStreams
 * drives the heartbeats and slow polls of every stream from one timer each.
 */
export class SseStream {
  private lastId: bigint;
  /** A read of the log, or the delivery of its events, is under way. */
  private reading = false;
  private rungWhileReading = false;
  /** Access re-checks under way: nothing is delivered until every one has let the stream go on. */
  private holds = 0;
  private closed = false;
  private lastDelivery = Date.now();
  private lastWrite = Date.now();
  private readonly socket: Socket | null;
  private readonly unsubscribe: () => void;
  private readonly onClosedCallbacks: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly source: SseSource,
    fromId: bigint,
    private readonly settings: SseConfig,
    private readonly batch = SSE_BATCH,
  ) {
    this.lastId = fromId;
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    // Node frames each chunk in four buffered writes and a deferred uncork; a notification makes
    // thousands of streams write at once, so a chunked stream writes its pre-framed chunks straight
    // to the socket instead (one write each). res.end() still sends the last chunk.
    this.socket = res.chunkedEncoding && res.socket ? res.socket : null;
    res.on('close', () => this.close(true));
    this.unsubscribe = source.subscribe(() => this.ring());
    this.ring();
  }

  onClosed(callback: () => void): void {
    if (this.closed) callback();
    else this.onClosedCallbacks.push(callback);
  }

  /** Ends the stream from the server side (idle, shutdown); `abort` drops unsent data (slow client). */
  close(abort = false): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    if (abort) this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
    for (const callback of this.onClosedCallbacks.splice(0)) callback();
  }

  /**
   * Ends the stream because the process stops: the client is told (`retry:`) to reconnect after
   * `reconnectInMs`, to another process, and to resume there from its `Last-Event-ID`.
   */
  closeForRestart(reconnectInMs: number): void {
    if (this.closed) return;
    const hint = `retry: ${reconnectInMs}\n\n`;
    if (!(this.socket ?? this.res).writableNeedDrain) this.write(hint, asChunk(hint));
    this.close();
  }

  /** Reads the log for events a lost notification did not announce. */
  poll(): void {
    this.ring();
  }

  /** Holds delivery while the caller's access is re-checked; events read meanwhile are read again. */
  hold(): void {
    this.holds++;
  }

  /** Ends a hold; once none is left, delivers what was held back. */
  release(): void {
    if (this.holds === 0) return;
    this.holds--;
    this.ring();
  }

  private ring(): void {
    if (this.closed || this.holds > 0) return;
    if (this.reading) {
      this.rungWhileReading = true;
      return;
    }
    this.read();
  }

  // Plain callbacks rather than an async loop: a notification wakes thousands of streams at once,
  // and every promise an async loop makes per stream is paid thousands of times.
  private read(): void {
    this.reading = true;
    this.rungWhileReading = false;
    this.source
      .read(this.lastId, this.batch)
      .then((events) => this.deliver(events, 0))
      .catch(() => this.close(true));
  }

  /** Writes `events` from `from` on; then reads on while more may exist, else rests until rung. */
  private deliver(events: SseEvent[], from: number): void {
    if (this.closed) return;
    for (let i = from; i < events.length; i++) {
      if (this.holds > 0) {
        // Read again from the last event sent once the hold ends (release rings).
        this.reading = false;
        return;
      }
      const ok = this.write(events[i].frame, events[i].chunk);
      this.lastId = events[i].id;
      this.lastDelivery = this.lastWrite = Date.now();
      if (events[i].last) {
        // Ending lets what is still buffered out first.
        this.close();
        return;
      }
      if (!ok) {
        this.drained()
          .then((drained) => drained && this.deliver(events, i + 1))
          .catch(() => this.close(true));
        return;
      }
    }
    if (events.length === this.batch || this.rungWhileReading) {
      this.read();
      return;
    }
    this.reading = false;
    if (Date.now() - this.lastDelivery > this.settings.idleTimeoutMs) this.close();
  }

  /** Waits for the socket to drain; a client that stays full past the limit is cut off. */
  private drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        cleanup();
        this.close(true);
        resolve(false);
      }, this.settings.slowClientTimeoutMs);
      const onDrain = () => {
        cleanup();
        resolve(!this.closed);
      };
      const onClose = () => {
        cleanup();
        resolve(false);
      };
      const cleanup = () => {
        clearTimeout(timer);
        (this.socket ?? this.res).off('drain', onDrain);
        this.res.off('close', onClose);
      };
      (this.socket ?? this.res).once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }

  /**
   * A comment that keeps proxies from closing a stream quiet for `heartbeatMs`; ends a stream
   * idle for too long. Called often: each stream beats on its own schedule, so thousands of
   * streams never all write at once.
   */
  heartbeat(now: number): void {
    if (this.closed) return;
    if (now - this.lastDelivery > this.settings.idleTimeoutMs) {
      this.close();
      return;
    }
    if (now - this.lastWrite < this.settings.heartbeatMs || (this.socket ?? this.res).writableNeedDrain) {
      return;
    }
    this.lastWrite = now;
    this.write(PING, PING_CHUNK);
  }

  private write(frame: string, chunk: string): boolean {
    return this.socket ? this.socket.write(chunk) : this.res.write(frame);
  }
}

import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import { AppConfig } from 'src/platform/config/app-config';
import { SseSource, SseStream } from 'src/platform/http/sse-stream';

/** How often streams are checked for a due heartbeat: each beats `heartbeatMs` after its last write. */
const HEARTBEAT_CHECK_MS = 1_000;

/**
 * Opens SSE streams, beats their heartbeats and slow polls from one timer each (thousands of
 * streams would otherwise hold thousands of timers, and their polls would not share reads), and
 * ends them all before the HTTP server closes, so shutdown never waits on a stream.
 */
@Injectable()
export class SseStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<SseStream>();
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly config: AppConfig) {}

  /** The stream writes its own head and body on the Node response (headers set before it are kept). */
  start(res: ServerResponse, source: SseSource, fromId: bigint): SseStream {
    const stream = new SseStream(res, source, fromId, this.config.sse);
    this.open.add(stream);
    if (this.timers.length === 0) this.startTimers();
    stream.onClosed(() => {
      this.open.delete(stream);
      if (this.open.size === 0) this.stopTimers();
    });
    return stream;
  }

  get count(): number {
    return this.open.size;
  }

  beforeApplicationShutdown(): void {
    for (const stream of [...this.open]) stream.close();
    this.stopTimers();
  }

  private startTimers(): void {
    const { heartbeatMs, pollMs } = this.config.sse;
    this.timers = [
      setInterval(
        () => {
          const now = Date.now();
          this.each((stream) => stream.heartbeat(now));
        },
        Math.min(heartbeatMs, HEARTBEAT_CHECK_MS),
      ),
      setInterval(() => this.each((stream) => stream.poll()), pollMs),
    ];
  }

  private stopTimers(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  private each(visit: (stream: SseStream) => void): void {
    for (const stream of [...this.open]) visit(stream);
  }
}

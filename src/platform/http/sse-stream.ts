import type { Response } from 'express';
import type { SseSettings } from 'src/platform/config/app-config';

export interface SseEvent {
  id: string;
  data: unknown;
}

export interface SseSource {
  /** Events after `afterId`, oldest first, at most `limit`. */
  read(afterId: string, limit: number): Promise<SseEvent[]>;
  /** Calls `ring` when new events may exist; returns the unsubscribe. */
  subscribe(ring: () => void): () => void;
}

const BATCH = 200;

/**
 * One Server-Sent-Events connection reading a durable log: it never queues events in memory
 * beyond one batch, writes only when the socket drains, and releases its subscription and
 * timers whichever way it ends (client gone, idle, slow client, shutdown, error).
 */
export class SseStream {
  private lastId: string;
  private pumping = false;
  private rungWhilePumping = false;
  private closed = false;
  private lastDelivery = Date.now();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly unsubscribe: () => void;
  private readonly onClosedCallbacks: (() => void)[] = [];

  constructor(
    private readonly res: Response,
    private readonly source: SseSource,
    fromId: string,
    private readonly settings: SseSettings,
  ) {
    this.lastId = fromId;
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Connection', 'keep-alive');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    res.on('close', () => this.close(true));
    this.unsubscribe = source.subscribe(() => this.ring());
    this.timers.push(
      setInterval(() => this.heartbeat(), settings.heartbeatMs),
      setInterval(() => this.ring(), settings.pollMs),
    );
    this.ring();
  }

  get isClosed(): boolean {
    return this.closed;
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
    for (const timer of this.timers) clearInterval(timer);
    if (abort) this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
    for (const callback of this.onClosedCallbacks.splice(0)) callback();
  }

  private ring(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.rungWhilePumping = true;
      return;
    }
    this.pumping = true;
    this.pump()
      .catch(() => this.close(true))
      .finally(() => {
        this.pumping = false;
      });
  }

  private async pump(): Promise<void> {
    do {
      this.rungWhilePumping = false;
      for (;;) {
        const events = await this.source.read(this.lastId, BATCH);
        if (this.closed) return;
        for (const event of events) {
          const ok = this.res.write(`id: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`);
          this.lastId = event.id;
          this.lastDelivery = Date.now();
          if (!ok && !(await this.drained())) return;
        }
        if (events.length < BATCH) break;
      }
    } while (this.rungWhilePumping && !this.closed);
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
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
      };
      this.res.once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }

  private heartbeat(): void {
    if (this.closed) return;
    if (Date.now() - this.lastDelivery > this.settings.idleTimeoutMs) {
      this.close();
      return;
    }
    if (this.res.writableNeedDrain) return;
    this.res.write(': ping\n\n');
  }
}

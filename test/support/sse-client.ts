import { IncomingMessage, request } from 'node:http';

export interface SseMessage {
  id: string;
  data: Record<string, unknown>;
}

/** A minimal EventSource for tests: raw access to status, headers, events and comments. */
export interface SseConnection {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body when the answer is not a stream (an error envelope). */
  body: () => Promise<string>;
  events: SseMessage[];
  comments: string[];
  /** The reconnection delay the server last sent (`retry:`), in milliseconds. */
  retry(): number | null;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  waitForEvents(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  /** Stops reading from the socket (a slow client) without closing it. */
  pause(): void;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseConnection> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const events: SseMessage[] = [];
      const comments: string[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let raw = '';
      let retry: number | null = null;
      const ended = new Promise<void>((done) => {
        res.on('end', done);
        res.on('close', done);
        res.on('error', () => done());
      });
      const streaming = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        if (!streaming) return;
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = block.split('\n');
          if (lines.every((line) => line.startsWith(':'))) {
            comments.push(block);
            continue;
          }
          const retryLine = lines.find((line) => line.startsWith('retry: '));
          if (retryLine) retry = Number(retryLine.slice(7));
          if (!lines.some((line) => line.startsWith('data: '))) continue;
          const id = lines.find((line) => line.startsWith('id: '))?.slice(4) ?? '';
          const data = lines
            .filter((line) => line.startsWith('data: '))
            .map((line) => line.slice(6))
            .join('\n');
          events.push({ id, data: JSON.parse(data) as Record<string, unknown> });
        }
        for (const wake of waiters.splice(0)) wake();
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: async () => {
          await ended;
          return raw;
        },
        events,
        comments,
        retry: () => retry,
        ended,
        waitForEvents: async (count, timeoutMs = 10_000) => {
          const deadline = Date.now() + timeoutMs;
          while (events.length < count) {
            const left = deadline - Date.now();
            if (left <= 0)
              throw new Error(
                `Timed out with ${events.length}/${count} events: ${JSON.stringify(events.map((e) => e.data.type))}`,
              );
            await new Promise<void>((wake) => {
              const timer = setTimeout(wake, left);
              waiters.push(() => {
                clearTimeout(timer);
                wake();
              });
            });
          }
          return events.slice(0, count);
        },
        pause: () => res.pause(),
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once the server has ended the stream; rejects when it is still open after `timeoutMs`. */
export async function endsWithin(stream: SseConnection, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    stream.ended,
    new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the stream was still open after ${timeoutMs} ms`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

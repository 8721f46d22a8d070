import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppConfig } from 'src/platform/config/app-config';
import { SseSource, SseStream } from 'src/platform/http/sse-stream';

/** Opens SSE streams and ends them all before the HTTP server closes, so shutdown never waits on a stream. */
@Injectable()
export class SseStreams implements BeforeApplicationShutdown {
  private readonly open = new Set<SseStream>();

  constructor(private readonly config: AppConfig) {}

  start(res: Response, source: SseSource, fromId: string): SseStream {
    const stream = new SseStream(res, source, fromId, this.config.sse);
    this.open.add(stream);
    stream.onClosed(() => this.open.delete(stream));
    return stream;
  }

  get count(): number {
    return this.open.size;
  }

  beforeApplicationShutdown(): void {
    for (const stream of [...this.open]) stream.close();
  }
}

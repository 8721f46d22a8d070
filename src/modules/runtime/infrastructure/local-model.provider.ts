import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from 'src/platform/config/app-config';
import {
  ModelChunk,
  ModelProvider,
  ModelRequest,
} from 'src/modules/runtime/application/ports/model-provider';
import { chunkAnswer, localAnswer } from 'src/modules/runtime/domain/local-answer';

/** The built-in deterministic model: no network, answers streamed in word groups. */
@Injectable()
export class LocalModelProvider extends ModelProvider {
  constructor(private readonly config: AppConfig) {
    super();
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    for (const chunk of chunkAnswer(
      localAnswer(
        request.instructions,
        request.messages.flatMap((m) => (m.role === 'tool' ? [] : [m])),
      ),
    )) {
      if (this.config.runs.localModelChunkDelayMs > 0) {
        await sleep(this.config.runs.localModelChunkDelayMs, undefined, { signal });
      }
      signal.throwIfAborted();
      yield { type: 'text', text: chunk };
    }
  }
}

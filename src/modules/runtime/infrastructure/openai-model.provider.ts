import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig, OpenAiSettings } from 'src/platform/config/app-config';
import {
  ModelChunk,
  ModelError,
  ModelProvider,
  ModelRequest,
} from 'src/modules/runtime/application/ports/model-provider';

const RETRY_BASE_MS = 250;
const RETRY_AFTER_MAX_MS = 10_000;

interface ChatCompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
}

/**
 * Any OpenAI-compatible chat-completions endpoint, streaming. Retries 429 and 5xx answers with
 * backoff before the first token; a request that takes longer than the timeout fails the run.
 */
@Injectable()
export class OpenAiModelProvider extends ModelProvider {
  constructor(private readonly config: AppConfig) {
    super();
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const settings = this.config.openai;
    if (!settings) {
      throw new ModelError(
        'model_provider_not_configured',
        'The openai model provider is not configured: set OPENAI_BASE_URL (and OPENAI_API_KEY) on the server.',
      );
    }
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const combined = AbortSignal.any([signal, timeout]);
    try {
      const response = await this.connect(settings, request, combined);
      yield* this.read(response, combined);
    } catch (error) {
      if (timeout.aborted && !signal.aborted) {
        throw new ModelError('model_timeout', `The model did not answer within ${settings.timeoutMs} ms.`);
      }
      throw error;
    }
  }

  private async connect(
    settings: OpenAiSettings,
    request: ModelRequest,
    signal: AbortSignal,
  ): Promise<Response> {
    const body = JSON.stringify({
      model: request.modelId,
      temperature: request.temperature,
      stream: true,
      messages: [
        { role: 'system', content: request.instructions },
        ...request.messages.map((message) => ({ role: message.role, content: message.content })),
      ],
    });
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${settings.baseUrl}/chat/completions`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'text/event-stream',
            ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
          },
          body,
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw error;
        if (attempt >= settings.maxRetries) {
          throw new ModelError(
            'model_unavailable',
            `The model endpoint could not be reached: ${(error as Error).message}`,
          );
        }
        await sleep(RETRY_BASE_MS * 2 ** attempt, undefined, { signal });
        continue;
      }
      if (response.ok && response.body) return response;
      const retryable = response.status === 429 || response.status >= 500;
      const detail = (await response.text().catch(() => '')).slice(0, 300);
      if (!retryable || attempt >= settings.maxRetries) {
        throw new ModelError(
          response.status === 429 ? 'model_rate_limited' : 'model_error',
          `The model endpoint answered ${response.status}${detail ? `: ${detail}` : ''}.`,
        );
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait =
        retryAfter > 0 ? Math.min(retryAfter * 1000, RETRY_AFTER_MAX_MS) : RETRY_BASE_MS * 2 ** attempt;
      await sleep(wait, undefined, { signal });
    }
  }

  private async *read(response: Response, signal: AbortSignal): AsyncIterable<ModelChunk> {
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
      signal.throwIfAborted();
      buffer += decoder.decode(bytes, { stream: true });
      let newline: number;
      while ((newline = buffer.indexOf('\n')) !== -1) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        if (!line.startsWith('data:')) continue;
        const data = line.slice(5).trim();
        if (data === '[DONE]') return;
        let chunk: ChatCompletionChunk;
        try {
          chunk = JSON.parse(data) as ChatCompletionChunk;
        } catch {
          throw new ModelError('model_error', 'The model endpoint sent a malformed stream.');
        }
        const text = chunk.choices?.[0]?.delta?.content;
        if (text) yield { type: 'text', text };
      }
    }
  }
}

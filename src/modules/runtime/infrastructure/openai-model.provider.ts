import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { finished } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentsConfig, OpenAiSettings } from 'src/modules/agents/agents.config';
import {
  ModelChunk,
  ModelChunkHandler,
  ModelError,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelUsage,
  ReasoningEffort,
} from 'src/modules/runtime/application/ports/model-provider';

const RETRY_BASE_MS = 250;
const RETRY_AFTER_MAX_MS = 10_000;
/** Of an error answer's body, what its message quotes. */
const ERROR_DETAIL_CHARS = 300;
/** A streamed line is one chunk of the answer: a few kilobytes, far less than this. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * The agent's effort in the chat-completions vocabulary (`low | medium | high`). `none` sends no
 * `reasoning_effort` at all, since most models and servers reject the key on a non-reasoning model.
 */
const REASONING_EFFORT: Record<ReasoningEffort, string | null> = {
  none: null,
  light: 'low',
  medium: 'medium',
  high: 'high',
};

interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface ChatCompletionChunk {
  choices?: {
    delta?: {
      content?: string | null;
      // Reasoning streamed apart from the answer: `reasoning_content` (DeepSeek, vLLM, llama.cpp)
      // or `reasoning` (Ollama, OpenRouter).
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: ToolCallDelta[] | null;
    };
    finish_reason?: string | null;
  }[];
  /** Sent when the request asks for it (`stream_options.include_usage`), in a last chunk without choices. */
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  } | null;
  error?: { message?: string };
}

/**
 * Any OpenAI-compatible chat-completions endpoint, streaming. Retries 429 and 5xx answers with
 * backoff before the first token; a request that takes longer than the timeout fails the run.
 */
@Injectable()
export class OpenAiModelProvider extends ModelProvider {
  constructor(private readonly config: AgentsConfig) {
    super();
  }

  async stream(request: ModelRequest, signal: AbortSignal, onChunk: ModelChunkHandler): Promise<boolean> {
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
      return await readAnswer(response, onChunk);
    } catch (error) {
      if (timeout.aborted && !signal.aborted) {
        throw new ModelError('model_timeout', `The model did not answer within ${settings.timeoutMs} ms.`);
      }
      throw error;
    }
  }

  /** Every model reads images unless OPENAI_TEXT_ONLY_MODELS names it. */
  acceptsImages(modelId: string): boolean {
    return !(this.config.openai?.textOnlyModels ?? []).includes(modelId);
  }

  private async connect(
    settings: OpenAiSettings,
    request: ModelRequest,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const body = JSON.stringify(requestBody(request));
    const url = new URL(`${settings.baseUrl}/chat/completions`);
    const headers: OutgoingHttpHeaders = {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Accept: 'text/event-stream',
      ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
    };
    for (let attempt = 0; ; attempt++) {
      let response: IncomingMessage;
      try {
        response = await post(url, headers, body, signal);
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
      const status = response.statusCode ?? 0;
      if (status >= 200 && status < 300) return response;
      const retryable = status === 429 || status >= 500;
      const detail = (await readPrefix(response, ERROR_DETAIL_CHARS).catch(() => '')).trim();
      if (!retryable || attempt >= settings.maxRetries) {
        throw new ModelError(
          status === 429 ? 'model_rate_limited' : 'model_error',
          `The model endpoint answered ${status}${detail ? `: ${detail}` : ''}.`,
        );
      }
      const retryAfter = Number(response.headers['retry-after']);
      const wait =
        retryAfter > 0 ? Math.min(retryAfter * 1000, RETRY_AFTER_MAX_MS) : RETRY_BASE_MS * 2 ** attempt;
      await sleep(wait, undefined, { signal });
    }
  }
}

/**
 * What the lines of a streamed answer said: its text and reasoning in order (consecutive pieces of
 * one kind joined), its tool calls and its usage. The usage chunk comes after the finish, so the
 * answer ends at `[DONE]`, at the usage once finished, or at the body's end.
 */
class StreamedAnswer {
  private readonly calls = new ToolCallAssembler();
  private text: { type: 'text' | 'reasoning'; text: string }[] = [];
  private finished = false;
  private usage: ModelUsage | null = null;

  /** Takes lines of the stream; true once the answer ended. */
  take(lines: string[]): boolean {
    for (const line of lines) {
      const event = parseLine(line);
      if (event === null) continue;
      if (event === 'done') return true;
      if (event.usage) this.usage = toUsage(event.usage);
      if (this.finished) {
        if (this.usage) return true;
        continue;
      }
      const choice = event.choices?.[0];
      const delta = choice?.delta;
      this.add('reasoning', delta?.reasoning_content ?? delta?.reasoning);
      this.add('text', delta?.content);
      for (const call of delta?.tool_calls ?? []) this.calls.add(call);
      if (choice?.finish_reason) {
        this.finished = true;
        if (this.usage) return true;
      }
    }
    return false;
  }

  /** The text and reasoning taken since the last call, in order. */
  takeText(): ModelChunk[] {
    const taken = this.text;
    this.text = [];
    return taken;
  }

  /** The step's tool calls, then its usage, once the answer ended. */
  end(): ModelChunk[] {
    const complete = this.calls.complete();
    return [
      ...(complete.length > 0 ? [{ type: 'tool_calls' as const, calls: complete }] : []),
      ...(this.usage ? [{ type: 'usage' as const, usage: this.usage }] : []),
    ];
  }

  private add(type: 'text' | 'reasoning', text: string | null | undefined): void {
    if (!text) return;
    const last = this.text.at(-1);
    if (last?.type === type) last.text += text;
    else this.text.push({ type, text });
  }
}

/** The usage a server reported; a count it left out or sent wrong is taken as 0. */
function toUsage(usage: NonNullable<ChatCompletionChunk['usage']>): ModelUsage {
  const count = (value: unknown) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
  return {
    promptTokens: count(usage.prompt_tokens),
    completionTokens: count(usage.completion_tokens),
    reasoningTokens: count(usage.completion_tokens_details?.reasoning_tokens),
  };
}

/**
 * Cuts a body's text into lines as it arrives: the complete lines of each read together, the last
 * one included when the body ends without a newline. A line longer than MAX_LINE_CHARS fails the
 * call: it is read against that cap as it arrives, never gathered whole.
 */
class LineSplitter {
  private buffer = '';

  push(text: string): string[] {
    const lines = (this.buffer + text).split('\n');
    this.buffer = lines.pop() ?? '';
    if (this.buffer.length > MAX_LINE_CHARS) {
      throw new ModelError(
        'model_error',
        `The model endpoint sent a line longer than ${MAX_LINE_CHARS} characters.`,
      );
    }
    return lines;
  }

  /** The unfinished last line, once the body has ended. */
  rest(): string[] {
    return this.buffer ? [this.buffer] : [];
  }
}

/**
 * Hands the answer to `onChunk` as the body brings it: the text (and reasoning) of each read as one
 * chunk, then the step's tool calls once the answer ends (a `finish_reason`, `[DONE]`, or the
 * body's end), then its usage when the server sends it. The usage chunk comes after the finish,
 * so the body is read on to `[DONE]`, the usage or the end. The body flows straight into the
 * handler; a handler's promise pauses it until it settles. Resolves true once the answer ended,
 * false when `onChunk` stopped it; either way the connection is not read further.
 */
function readAnswer(response: IncomingMessage, onChunk: ModelChunkHandler): Promise<boolean> {
  const answer = new StreamedAnswer();
  const lines = new LineSplitter();
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    let held = false;
    let bodyEnded = false;
    const settle = (error: unknown, ended: boolean) => {
      if (settled) return;
      settled = true;
      response.off('data', onData);
      stopWatching();
      if (!response.complete) response.destroy();
      if (error === null) resolve(ended);
      else reject(error instanceof Error ? error : new ModelError('model_error', 'The model stream failed.'));
    };
    /** Hands `chunks` over, then goes on with `next`, unless the handler stopped the call. */
    const handOver = (chunks: () => ModelChunk[], next: () => void) => {
      let going: boolean | Promise<boolean>;
      try {
        going = pushInOrder(chunks(), onChunk);
      } catch (error) {
        settle(error, false);
        return;
      }
      if (going === true) next();
      else if (going === false) settle(null, false);
      else {
        held = true;
        response.pause();
        going.then(
          (on) => {
            held = false;
            if (on) next();
            else settle(null, false);
          },
          (error: unknown) => settle(error, false),
        );
      }
    };
    const finish = () =>
      handOver(
        () => answer.end(),
        () => settle(null, true),
      );
    // The body ended without `[DONE]`: its last line, unfinished, may still say something.
    const lastLine = () =>
      handOver(() => {
        answer.take(lines.rest());
        return answer.takeText();
      }, finish);
    const onData = (text: string) => {
      let ended = false;
      handOver(
        () => {
          ended = answer.take(lines.push(text));
          return answer.takeText();
        },
        () => {
          if (ended) finish();
          else if (bodyEnded) lastLine();
          else if (response.isPaused()) response.resume();
        },
      );
    };
    // The body may end while a handler holds it: its last line then waits for the handler.
    const stopWatching = finished(response, { writable: false }, (error) => {
      if (settled) return;
      if (error) settle(error, false);
      else if (!held) lastLine();
      else bodyEnded = true;
    });
    response.setEncoding('utf8');
    response.on('data', onData);
  });
}

/** Hands `chunks` to `onChunk` in order: false once one stopped the call, a promise once one held it. */
function pushInOrder(chunks: ModelChunk[], onChunk: ModelChunkHandler, from = 0): boolean | Promise<boolean> {
  for (let i = from; i < chunks.length; i++) {
    const going = onChunk(chunks[i]);
    if (going === true) continue;
    if (going === false) return false;
    return going.then((on) => on && pushInOrder(chunks, onChunk, i + 1));
  }
  return true;
}

/** The first `max` characters of a body (an error's detail); the rest is not read. */
async function readPrefix(body: IncomingMessage, max: number): Promise<string> {
  body.setEncoding('utf8');
  let text = '';
  for await (const chunk of body as AsyncIterable<string>) {
    text += chunk;
    if (text.length >= max) break;
  }
  body.destroy();
  return text.slice(0, max);
}

/**
 * POSTs `body`; resolves with the response once its head arrived. `signal` aborts it at any point.
 * Node's global agents keep connections alive and reuse them, and honour `NODE_USE_ENV_PROXY`.
 */
function post(
  url: URL,
  headers: OutgoingHttpHeaders,
  body: string,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers,
      signal,
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end(body);
  });
}

/** The chat-completions request: keys a server may reject (`tools`, `reasoning_effort`) only when used. */
function requestBody(request: ModelRequest): Record<string, unknown> {
  const effort = REASONING_EFFORT[request.reasoningEffort];
  return {
    model: request.modelId,
    temperature: request.temperature,
    stream: true,
    // The last chunk then carries the call's token counts.
    stream_options: { include_usage: true },
    // What the call reserved of the workspace's budget counts on it (`max_tokens` is deprecated);
    // a model with a lower ceiling refuses a higher one, so none is sent unless configured.
    ...(request.maxOutputTokens !== null ? { max_completion_tokens: request.maxOutputTokens } : {}),
    ...(effort ? { reasoning_effort: effort } : {}),
    messages: [
      { role: 'system', content: request.instructions },
      ...request.messages.map(toWire),
      ...(request.continueFrom ? continuation(request.continueFrom) : []),
    ],
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
  };
}

/**
 * Chat completions take no partial answer to extend: the cut answer goes back as the model's turn,
 * and an instruction asks for the rest of it alone.
 */
function continuation(said: string): Record<string, unknown>[] {
  return [
    { role: 'assistant', content: said },
    {
      role: 'system',
      content:
        'Your answer above was cut off mid-way. Continue it from exactly where it stops: do not repeat any of it, and do not comment on the interruption.',
    },
  ];
}

function toWire(message: ModelMessage): Record<string, unknown> {
  switch (message.role) {
    case 'user':
      if (!message.image) return { role: 'user', content: message.content };
      // The chat-completions form of an image: a content part carrying it as a data URL.
      return {
        role: 'user',
        content: [
          { type: 'text', text: message.content },
          {
            type: 'image_url',
            image_url: { url: `data:${message.image.contentType};base64,${message.image.base64}` },
          },
        ],
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      if (!message.toolCalls?.length) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        // The API wants null, not an empty string, for a turn that only calls tools.
        content: message.content || null,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        })),
      };
  }
}

/** One `data:` line of the stream: its chunk, `'done'`, or null for any other line. */
function parseLine(line: string): ChatCompletionChunk | 'done' | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('data:')) return null;
  const data = trimmed.slice(5).trim();
  if (data === '[DONE]') return 'done';
  let chunk: ChatCompletionChunk;
  try {
    chunk = JSON.parse(data) as ChatCompletionChunk;
  } catch {
    throw new ModelError('model_error', 'The model endpoint sent a malformed stream.');
  }
  if (typeof chunk !== 'object' || chunk === null) {
    throw new ModelError('model_error', 'The model endpoint sent a malformed stream.');
  }
  if (chunk.error) {
    throw new ModelError(
      'model_error',
      `The model endpoint failed mid-answer: ${chunk.error.message ?? 'no reason given'}.`,
    );
  }
  return chunk;
}

/**
 * Puts streamed tool-call fragments together. Fragments of a call share its `index`; the first
 * carries `id` and the name, the next ones pieces of the arguments.
 */
class ToolCallAssembler {
  private readonly calls = new Map<number, { id: string | null; name: string; arguments: string }>();

  add(delta: ToolCallDelta): void {
    const index = this.indexOf(delta);
    const call = this.calls.get(index) ?? { id: null, name: '', arguments: '' };
    this.calls.set(index, call);
    if (delta.id && !call.id) call.id = delta.id;
    const name = delta.function?.name;
    // Some servers repeat the whole name in every fragment; others split it.
    if (name && name !== call.name) call.name += name;
    call.arguments += delta.function?.arguments ?? '';
  }

  complete(): ModelToolCall[] {
    const seen = new Set<string>();
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => {
        if (!call.name) {
          throw new ModelError('model_error', 'The model endpoint sent a tool call without a name.');
        }
        // The id pairs the call with its result on the next request, so it must be there and unique.
        const id = call.id && !seen.has(call.id) ? call.id : `call_${randomUUID()}`;
        seen.add(id);
        return { id, name: call.name, arguments: call.arguments.trim() ? call.arguments : '{}' };
      });
  }

  /** Servers that leave out `index` send each call whole, in one fragment with its own id. */
  private indexOf(delta: ToolCallDelta): number {
    if (typeof delta.index === 'number') return delta.index;
    const last = Math.max(-1, ...this.calls.keys());
    const current = this.calls.get(last);
    if (current && (!delta.id || delta.id === current.id)) return last;
    return last + 1;
  }
}

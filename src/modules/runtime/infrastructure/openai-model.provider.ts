import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, OutgoingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { finished } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentsConfig, OpenAiSettings } from 'src/modules/agents/agents.api';
import { backoffDelayMs } from 'src/modules/runtime/domain/backoff';
import type { RetryBudget } from 'src/modules/runtime/domain/retry-budget';
import { errorAnswer, retryAfterMs } from 'src/modules/runtime/infrastructure/model-endpoint-answers';
import {
  ModelChunk,
  ModelChunkHandler,
  ModelError,
  ModelMessage,
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelUsage,
} from 'src/modules/runtime/application/ports/model-provider';
import { ReasoningEffort } from 'src/kernel/agent-model';

/** A retry waits at most this many times the back-off base. */
const RETRY_CEILING_FACTOR = 32;
/** Of an error answer's body, what is read to find its error: more than any JSON error OpenAI sends. */
const ERROR_BODY_CHARS = 16 * 1024;
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

/** One model call's request, the same for each of its attempts. */
interface Exchange {
  url: URL;
  headers: OutgoingHttpHeaders;
  body: string;
}

/**
 * A failed attempt that another may pass: an answer that may pass later (429, 5xx…), a connection
 * refused or broken, no first byte in time. `retryAfterMs` is the wait the endpoint asked for.
 */
class TransientFailure extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
    readonly detail: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(failureMessage(reason, 0, detail));
  }
}

/** "<reason> after <n> retries: <detail>. <extra>", each part left out when it has nothing to say. */
function failureMessage(reason: string, retries: number, detail: string, extra = ''): string {
  const after = retries === 0 ? '' : ` after ${retries} ${retries === 1 ? 'retry' : 'retries'}`;
  return `${reason}${after}${detail ? `: ${detail.replace(/\.$/, '')}` : ''}.${extra ? ` ${extra}` : ''}`;
}

/** Where a call stands when an attempt failed. */
interface FailedAttempt {
  retries: number;
  /** Whether some of the answer already reached the caller. */
  answering: boolean;
  /** What the next attempt would wait. */
  waitMs: number;
  /** When the call times out (`Date.now()` time). */
  deadline: number;
}

/**
 * Why `failure` is not tried again, as the error the call fails with; null when it is, the retry
 * then taken from `budget`. Past the call's timeout a wait would only end in `model_timeout`: the
 * call fails at once instead, with the endpoint's own reason.
 */
function finalFailure(
  failure: TransientFailure,
  attempt: FailedAttempt,
  settings: OpenAiSettings,
  budget: RetryBudget | undefined,
): ModelError | null {
  const fail = (extra = '') =>
    new ModelError(failure.code, failureMessage(failure.reason, attempt.retries, failure.detail, extra));
  if (attempt.answering) {
    return new ModelError(failure.code, failureMessage(`${failure.reason} mid-answer`, 0, failure.detail));
  }
  if (Date.now() + attempt.waitMs >= attempt.deadline) {
    return fail(
      `Another try would wait ${attempt.waitMs} ms, past the call's timeout of ${settings.timeoutMs} ms (OPENAI_TIMEOUT_MS).`,
    );
  }
  if (attempt.retries >= settings.maxRetries) return fail();
  if (budget && !budget.take()) return fail('The run has no retries left (RUN_MODEL_RETRY_BUDGET).');
  return null;
}

/**
 * Any OpenAI-compatible chat-completions endpoint, streaming. An attempt that fails before any of
 * the answer reached the caller is made again after a jittered exponential back-off (or the wait
 * the endpoint asks for): 429, 408, 409 and 5xx answers, a connection refused or broken, no first
 * byte within `firstByteTimeoutMs`. A call retries at most `maxRetries` times, and no more than its
 * run's `RetryBudget` grants; `timeoutMs` bounds the call, its retries and their waits included.
 * Answers that will not pass later (a bad request, a refused key, an unknown model) fail at once.
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
    const deadline = Date.now() + settings.timeoutMs;
    const exchange = exchangeOf(settings, request);
    const backoff = { baseMs: settings.retryBaseMs, maxMs: settings.retryBaseMs * RETRY_CEILING_FACTOR };
    // Once a chunk reached the caller, another attempt would hand it the answer twice.
    let answering = false;
    const handOn: ModelChunkHandler = (chunk) => {
      answering = true;
      return onChunk(chunk);
    };
    let lastFailure: TransientFailure | null = null;
    try {
      for (let retries = 0; ; retries++) {
        try {
          return await this.attempt(settings, exchange, combined, handOn);
        } catch (error) {
          if (combined.aborted || !(error instanceof TransientFailure)) throw error;
          lastFailure = error;
          const waitMs = Math.max(error.retryAfterMs ?? 0, backoffDelayMs(retries, backoff));
          const final = finalFailure(
            error,
            { retries, answering, waitMs, deadline },
            settings,
            request.retries,
          );
          if (final) throw final;
          await sleep(waitMs, undefined, { signal: combined });
        }
      }
    } catch (error) {
      if (timeout.aborted && !signal.aborted) {
        const last = lastFailure ? ` Its last attempt: ${lastFailure.message}` : '';
        throw new ModelError(
          'model_timeout',
          `The model did not answer within ${settings.timeoutMs} ms.${last}`,
        );
      }
      throw error;
    }
  }

  /** Every model reads images unless OPENAI_TEXT_ONLY_MODELS names it. */
  acceptsImages(modelId: string): boolean {
    return !(this.config.openai?.textOnlyModels ?? []).includes(modelId);
  }

  /**
   * One request of a call: resolves as `stream` does once its answer was read. Fails with a
   * `TransientFailure` what another attempt may pass, with a `ModelError` what it will not.
   */
  private async attempt(
    settings: OpenAiSettings,
    exchange: Exchange,
    signal: AbortSignal,
    onChunk: ModelChunkHandler,
  ): Promise<boolean> {
    // An endpoint that accepted the request but sends nothing may be stuck: another try may not be.
    const firstByte = new AbortController();
    const timer = setTimeout(() => firstByte.abort(), settings.firstByteTimeoutMs);
    const attemptSignal = AbortSignal.any([signal, firstByte.signal]);
    const noFirstByte = () =>
      new TransientFailure(
        'model_timeout',
        `The model endpoint sent nothing within ${settings.firstByteTimeoutMs} ms`,
        '',
      );
    try {
      let response: IncomingMessage;
      try {
        response = await post(exchange.url, exchange.headers, exchange.body, attemptSignal);
      } catch (error) {
        if (signal.aborted) throw error;
        if (firstByte.signal.aborted) throw noFirstByte();
        throw new TransientFailure(
          'model_unavailable',
          'The model endpoint could not be reached',
          (error as Error).message,
        );
      }
      const status = response.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        const answer = errorAnswer(status, await readPrefix(response, ERROR_BODY_CHARS).catch(() => ''));
        if (!answer.retryable) {
          throw new ModelError(answer.code, failureMessage(answer.reason, 0, answer.detail, answer.hint));
        }
        const asked = retryAfterMs(response.headers, Date.now());
        throw new TransientFailure(answer.code, answer.reason, answer.detail, asked);
      }
      try {
        return await readAnswer(response, onChunk, () => clearTimeout(timer));
      } catch (error) {
        if (firstByte.signal.aborted && !signal.aborted) throw noFirstByte();
        throw error;
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The request a call sends, as JSON, to the endpoint's chat completions. */
function exchangeOf(settings: OpenAiSettings, request: ModelRequest): Exchange {
  const body = JSON.stringify(requestBody(request));
  return {
    url: new URL(`${settings.baseUrl}/chat/completions`),
    body,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(body),
      Accept: 'text/event-stream',
      ...(settings.apiKey ? { Authorization: `Bearer ${settings.apiKey}` } : {}),
    },
  };
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
 * false when `onChunk` stopped it; either way the connection is not read further. `onFirstData` is
 * told when the body's first bytes arrive; a connection that breaks fails with a `TransientFailure`.
 */
function readAnswer(
  response: IncomingMessage,
  onChunk: ModelChunkHandler,
  onFirstData: () => void,
): Promise<boolean> {
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
      if (error) {
        const reason = 'The connection to the model endpoint broke';
        settle(new TransientFailure('model_unavailable', reason, error.message), false);
      } else if (!held) lastLine();
      else bodyEnded = true;
    });
    response.setEncoding('utf8');
    response.once('data', onFirstData);
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

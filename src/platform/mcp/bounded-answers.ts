import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { McpAnswerTooLarge } from 'src/platform/mcp/mcp-session';
import type { GuardedFetch } from 'src/platform/net/guarded-fetch';

/** The JSON-RPC error (implementation-defined range) that stands for an answer past the limit. */
const ANSWER_TOO_LARGE_CODE = -32_099;

function answerTooLargeText(maxBytes: number): string {
  return `The server's answer is larger than ${maxBytes} bytes (MCP_MESSAGE_MAX_BYTES); it was not read further.`;
}

/** The SDK's error for an answer this fetch cut at its limit, as the limit's own error; else null. */
export function answerTooLarge(error: unknown): McpAnswerTooLarge | null {
  if (!(error instanceof McpError) || error.code !== ANSWER_TOO_LARGE_CODE) return null;
  const maxBytes = (error.data as { maxBytes?: unknown } | undefined)?.maxBytes;
  return new McpAnswerTooLarge(answerTooLargeText(Number(maxBytes)));
}

const LF = 0x0a;
const CR = 0x0d;
/** Statuses whose responses have no body. */
const BODYLESS = new Set([101, 204, 205, 304]);

/**
 * A fetch for the MCP transports whose answers are read against `maxBytes` as they arrive: one
 * event of an event stream, or a whole JSON body, past the limit stops the read (the connection is
 * dropped) and is replaced by a JSON-RPC error answering the request that was sent, so the call
 * fails at once with a clear reason instead of waiting for its timeout. An error body is cut at
 * the limit (the transports quote it).
 */
export function boundedMcpFetch(fetch: GuardedFetch, maxBytes: number): GuardedFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body || BODYLESS.has(response.status)) return response;
    const replacement = () => errorAnswer(init?.body, maxBytes);
    const limiter = !response.ok
      ? cutAt(maxBytes)
      : mediaType(response) === 'text/event-stream'
        ? eachEventWithin(maxBytes, () => {
            const answer = replacement();
            return answer === null ? null : `event: message\ndata: ${answer}\n\n`;
          })
        : wholeWithin(maxBytes, replacement);
    return new Response(response.body.pipeThrough(limiter), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function mediaType(response: Response): string {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
}

/** The JSON-RPC error answering the request in `body`; null when it holds no single request. */
function errorAnswer(body: unknown, maxBytes: number): string | null {
  if (typeof body !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return null;
  }
  const id = (message as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: { code: ANSWER_TOO_LARGE_CODE, message: answerTooLargeText(maxBytes), data: { maxBytes } },
  });
}

/** Ends the stream past the limit: with `replacement` when there is one, else with an error. */
function stop(
  controller: TransformStreamDefaultController<Uint8Array>,
  replacement: string | null,
  maxBytes: number,
): void {
  if (replacement === null) {
    controller.error(new McpAnswerTooLarge(answerTooLargeText(maxBytes)));
    return;
  }
  controller.enqueue(new TextEncoder().encode(replacement));
  controller.terminate();
}

/**
 * Passes on the events of an event stream whole, each once it has ended (at an empty line), and
 * holds at most `maxBytes` of the event being read.
 */
export function eachEventWithin(
  maxBytes: number,
  replacement: () => string | null,
): TransformStream<Uint8Array, Uint8Array> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let atLineStart = true;
  let afterCr = false;
  return new TransformStream({
    transform(chunk, controller) {
      let from = 0;
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        // CR LF ends one line, not two.
        const crlf = byte === LF && afterCr;
        afterCr = byte === CR;
        if (crlf) continue;
        if (byte !== LF && byte !== CR) {
          atLineStart = false;
          continue;
        }
        if (!atLineStart) {
          atLineStart = true;
          continue;
        }
        if (pendingBytes + i + 1 - from > maxBytes) break;
        for (const part of pending) controller.enqueue(part);
        controller.enqueue(chunk.subarray(from, i + 1));
        pending = [];
        pendingBytes = 0;
        from = i + 1;
      }
      if (from < chunk.length) {
        pending.push(chunk.subarray(from));
        pendingBytes += chunk.length - from;
      }
      if (pendingBytes > maxBytes) {
        pending = [];
        stop(controller, replacement(), maxBytes);
      }
    },
    flush(controller) {
      for (const part of pending) controller.enqueue(part);
    },
  });
}

/** Passes on a body once it has ended, holding at most `maxBytes` of it. */
export function wholeWithin(
  maxBytes: number,
  replacement: () => string | null,
): TransformStream<Uint8Array, Uint8Array> {
  let parts: Uint8Array[] = [];
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      parts.push(chunk);
      total += chunk.length;
      if (total > maxBytes) {
        parts = [];
        stop(controller, replacement(), maxBytes);
      }
    },
    flush(controller) {
      for (const part of parts) controller.enqueue(part);
    },
  });
}

/** Passes on the first `maxBytes` of a body, then ends it. */
export function cutAt(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let left = maxBytes;
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk.length < left) {
        controller.enqueue(chunk);
        left -= chunk.length;
        return;
      }
      controller.enqueue(chunk.subarray(0, left));
      controller.terminate();
    },
  });
}

import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';

/** A tool call the fake streams; without `id`, its fragments carry none (as some servers do). */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: string;
}

/** What a reply says it cost, in OpenAI's last chunk, sent only when the request asks for it. */
export interface FakeUsage {
  prompt: number;
  completion: number;
  reasoning?: number;
}

export type FakeReply =
  /** With `cutOff`, the connection is closed after the chunks, before the answer's end. */
  | { kind: 'stream'; chunks: string[]; usage?: FakeUsage; cutOff?: boolean }
  /** An error answer: `{"error": error}` (by default a message naming the status), with `headers`. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; error?: Record<string, unknown> }
  /** Never answers; with `headFirst`, sends a 200 event-stream head and then nothing. */
  | { kind: 'stall'; headFirst?: boolean }
  /** Resets the connection without answering. */
  | { kind: 'reset' }
  /** Streams `text` word by word, then the calls' fragments interleaved, then `finish_reason: "tool_calls"`. */
  | { kind: 'tool_calls'; calls: FakeToolCall[]; text?: string; usage?: FakeUsage }
  /** Writes these `data:` payloads as they are, then ends the body (no `[DONE]` unless listed). */
  | { kind: 'raw'; data: string[] };

/** How many pieces each call's arguments are cut into, so a client must join them. */
const ARGUMENT_FRAGMENTS = 3;

/** A local OpenAI-compatible chat-completions server whose replies the test scripts, one per request. */
export class FakeOpenAi {
  readonly requests: {
    path: string;
    authorization: string | undefined;
    /** The W3C trace context the caller sent on (when it traces). */
    traceparent: string | undefined;
    body: Record<string, unknown>;
    /** When it arrived, on `performance.now()`'s clock. */
    at: number;
  }[] = [];
  private readonly replies: FakeReply[] = [];
  private readonly stalled: ServerResponse[] = [];
  private server: Server | null = null;

  script(...replies: FakeReply[]): void {
    this.replies.push(...replies);
  }

  /** Forgets the scripted replies no request has taken yet. */
  unscript(): void {
    this.replies.length = 0;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    return `http://127.0.0.1:${address.port}/v1`;
  }

  async stop(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += String(chunk);
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    this.requests.push({
      path: req.url ?? '',
      authorization: req.headers.authorization,
      traceparent: req.headers.traceparent as string | undefined,
      body,
      at: performance.now(),
    });
    const streamOptions = body.stream_options as { include_usage?: boolean } | undefined;
    const sendUsage = async (usage: FakeUsage | undefined) => {
      if (usage && streamOptions?.include_usage) await send(res, usageChunk(usage));
    };
    const reply = this.replies.shift() ?? { kind: 'status', status: 500 };
    switch (reply.kind) {
      case 'status':
        res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
        res.end(JSON.stringify({ error: reply.error ?? { message: `scripted ${reply.status}` } }));
        return;
      case 'stall':
        if (reply.headFirst) {
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          res.flushHeaders();
        }
        this.stalled.push(res);
        return;
      case 'reset':
        req.socket.resetAndDestroy();
        return;
      case 'stream':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const chunk of reply.chunks) {
          await send(res, { choices: [{ delta: { content: chunk } }] });
        }
        if (reply.cutOff) {
          // Closed, not reset: a reset may drop the chunks the client has not read yet.
          req.socket.destroy();
          return;
        }
        await send(res, { choices: [{ delta: {}, finish_reason: 'stop' }] });
        await sendUsage(reply.usage);
        res.end('data: [DONE]\n\n');
        return;
      case 'tool_calls':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const word of reply.text?.match(/\S+\s*/g) ?? []) {
          await send(res, { choices: [{ delta: { content: word } }] });
        }
        for (const delta of toolCallDeltas(reply.calls)) {
          await send(res, { choices: [{ delta: { tool_calls: [delta] } }] });
        }
        await send(res, { choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
        await sendUsage(reply.usage);
        res.end('data: [DONE]\n\n');
        return;
      case 'raw':
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        for (const data of reply.data) {
          res.write(`data: ${data}\n\n`);
          // As a model streams: each piece on the wire a moment after the last (see \`send\`).
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        res.end();
    }
  }
}

/** OpenAI's usage chunk: no choices, the counts of the whole call. */
function usageChunk(usage: FakeUsage): Record<string, unknown> {
  return {
    choices: [],
    usage: {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
      completion_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
    },
  };
}

/** Writes one chunk, then lets a few ms of real time pass, so that the client reads it apart from the next. */
async function send(res: ServerResponse, chunk: unknown): Promise<void> {
  res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * The deltas of parallel calls as OpenAI streams them: each call's head (index, id, name) first,
 * then the argument pieces of all calls taken in turn, so the calls interleave by `index`.
 */
function toolCallDeltas(calls: FakeToolCall[]): Record<string, unknown>[] {
  const heads = calls.map((call, index) => ({
    index,
    ...(call.id ? { id: call.id } : {}),
    type: 'function',
    function: { name: call.name, arguments: '' },
  }));
  const deltas: Record<string, unknown>[] = [...heads];
  for (let round = 0; round < ARGUMENT_FRAGMENTS; round++) {
    calls.forEach((call, index) => {
      const size = Math.ceil(call.arguments.length / ARGUMENT_FRAGMENTS);
      const piece = call.arguments.slice(round * size, (round + 1) * size);
      if (piece) deltas.push({ index, function: { arguments: piece } });
    });
  }
  return deltas;
}

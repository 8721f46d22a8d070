import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import {
  answerTooLarge,
  boundedMcpFetch,
  cutAt,
  eachEventWithin,
  wholeWithin,
} from 'src/platform/mcp/bounded-answers';

const encoder = new TextEncoder();

/** What `stream` makes of `chunks`: the text passed on, and the error it ended with, if any. */
async function run(
  stream: TransformStream<Uint8Array, Uint8Array>,
  chunks: string[],
): Promise<{ text: string; error: unknown; pulled: number }> {
  let pulled = 0;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks.length) return controller.close();
      controller.enqueue(encoder.encode(chunks[pulled++]));
    },
  });
  let text = '';
  try {
    for await (const part of source.pipeThrough(stream).pipeThrough(new TextDecoderStream())) text += part;
    return { text, error: null, pulled };
  } catch (error) {
    return { text, error, pulled };
  }
}

describe('eachEventWithin', () => {
  it('passes on whole events, however the bytes are split', async () => {
    const events = 'data: one\n\nevent: message\r\ndata: two\r\n\r\n: keep-alive\r\rdata: three\n\n';
    const chunks = events.match(/[\s\S]{1,3}/g)!;
    expect(
      await run(
        eachEventWithin(64, () => null),
        chunks,
      ),
    ).toMatchObject({ text: events, error: null });
  });

  it('replaces an event past the limit, and reads nothing after it', async () => {
    const big = `data: ${'x'.repeat(100)}\n\n`;
    const result = await run(
      eachEventWithin(50, () => 'data: replaced\n\n'),
      [
        'data: small\n\n',
        big.slice(0, 40),
        big.slice(40),
        'data: never read\n\n',
        'data: never read either\n\n',
      ],
    );
    expect(result).toMatchObject({ text: 'data: small\n\ndata: replaced\n\n', error: null });
    expect(result.pulled).toBeLessThan(5);
  });

  it('stops an event that ends in the chunk that passes the limit', async () => {
    const result = await run(
      eachEventWithin(20, () => null),
      [`data: ${'y'.repeat(30)}\n\ndata: ok\n\n`],
    );
    expect(result.text).toBe('');
    expect(result.error).toMatchObject({
      code: 'protocol_error',
      message: expect.stringMatching(/20 bytes/),
    });
  });
});

describe('wholeWithin and cutAt', () => {
  it('passes on a body within the limit, and replaces one past it', async () => {
    expect(
      await run(
        wholeWithin(10, () => '{}'),
        ['{"a":', '1}'],
      ),
    ).toMatchObject({ text: '{"a":1}' });
    const past = await run(
      wholeWithin(10, () => '{"error":1}'),
      ['{"a":"', 'x'.repeat(20), '"}', 'more'],
    );
    expect(past).toMatchObject({ text: '{"error":1}', error: null });
    expect(past.pulled).toBeLessThan(4);
  });

  it('cuts an error body at the limit', async () => {
    expect(await run(cutAt(5), ['abc', 'defgh', 'ijk'])).toMatchObject({ text: 'abcde', error: null });
  });
});

describe('boundedMcpFetch', () => {
  let server: Server;
  let base: string;
  /** Bytes each response wrote before its client went away, by path. */
  const written: Record<string, { bytes: number; finished: boolean }> = {};

  /** Writes `total` bytes of `body` in 64 KiB pieces, as long as the client reads. */
  async function stream(res: ServerResponse, path: string, head: string, total: number, tail: string) {
    const record: { bytes: number; finished: boolean } = { bytes: 0, finished: false };
    written[path] = record;
    const piece = 'z'.repeat(65_536);
    res.write(head);
    while (record.bytes < total && !res.destroyed) {
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const wake = () => {
            res.off('drain', wake).off('close', wake);
            resolve();
          };
          res.on('drain', wake).on('close', wake);
        });
      }
      record.bytes += piece.length;
    }
    if (!res.destroyed) {
      res.end(tail);
      record.finished = true;
    }
  }

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      req.resume();
      if (req.url === '/json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        void stream(res, '/json', '{"jsonrpc":"2.0","id":7,"result":{"text":"', 50 * 1024 * 1024, '"}}');
      } else if (req.url === '/sse') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        void stream(
          res,
          '/sse',
          'event: message\ndata: {"jsonrpc":"2.0","id":7,"result":"',
          50 * 1024 * 1024,
          '"}\n\n',
        );
      } else if (req.url === '/small') {
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.end('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
      } else {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        void stream(res, '/error', 'boom', 50 * 1024 * 1024, '');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const limit = 1024 * 1024;
  const bounded = boundedMcpFetch(fetch, limit);
  const request = { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call' }) };

  it.each(['/json', '/sse'])(
    'answers a request whose answer at %s passes the limit with an error, and drops the connection',
    async (path) => {
      const response = await bounded(`${base}${path}`, request);
      const text = await response.text();
      const answer = path === '/sse' ? text.replace(/^event: message\ndata: /, '') : text;
      const parsed = JSON.parse(answer) as {
        id: number;
        error: { code: number; message: string; data: unknown };
      };
      expect(parsed).toMatchObject({ id: 7, error: { message: expect.stringContaining(`${limit} bytes`) } });
      const reported = answerTooLarge(
        new McpError(parsed.error.code, parsed.error.message, parsed.error.data),
      );
      expect(reported?.message).toBe(
        `The server's answer is larger than ${limit} bytes (MCP_MESSAGE_MAX_BYTES); it was not read further.`,
      );
      // Real time for the server to write on, were the socket still read: it cannot signal that it stopped.
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The server could write no more than what the socket buffers hold past the limit.
      expect(written[path].finished).toBe(false);
      expect(written[path].bytes).toBeLessThan(limit + 8 * 1024 * 1024);
    },
  );

  it('passes an answer within the limit as it is', async () => {
    const response = await bounded(`${base}/small`, request);
    expect(await response.text()).toBe('event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{}}\n\n');
  });

  it('cuts an error body at the limit', async () => {
    const response = await bounded(`${base}/error`, request);
    expect(response.status).toBe(500);
    expect((await response.text()).length).toBe(limit);
  });
});

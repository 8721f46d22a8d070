import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';

export interface McpTestServerOptions {
  /** Every request must carry `Authorization: Bearer <bearer>`, else 401. */
  bearer?: string;
  /** The Streamable HTTP path refuses POST (405), as a server that only speaks the older SSE transport. */
  legacyOnly?: boolean;
  /** Listen on this port (e.g. one that was closed when a server was registered); 0 by default. */
  port?: number;
  /** The Streamable HTTP path (`/mcp` by default): a server may put a key there. */
  mcpPath?: string;
  /** Also lists `slow_lookup`, a slow tool that declares itself safe to call again (`idempotentHint`). */
  idempotentLookup?: boolean;
}

/** A tool call the server received; `aborted` turns true when the caller cancelled it. */
export interface McpTestCall {
  name: string;
  args: Record<string, unknown>;
  aborted?: boolean;
}

export interface McpTestServer {
  /** The Streamable HTTP endpoint (with `legacyOnly`, a legacy endpoint that answers GET with SSE). */
  url: string;
  /** The legacy SSE endpoint. */
  sseUrl: string;
  calls: McpTestCall[];
  /** How many HTTP requests arrived, refused ones included, with the trace context they carried. */
  requests: {
    method: string;
    path: string;
    authorization: string | undefined;
    traceparent: string | undefined;
  }[];
  stop(): Promise<void>;
}

const SSE_PATH = '/sse';
const MESSAGES_PATH = '/messages';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

function buildServer(calls: McpTestCall[], idempotentLookup: boolean): McpServer {
  const server = new McpServer({ name: 'mcp-test-server', version: '1.0.0' });
  const record = (name: string, args: Record<string, unknown>): McpTestCall => {
    const call: McpTestCall = { name, args };
    calls.push(call);
    return call;
  };
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    (args) => {
      record('add', args);
      return text(String(args.a + args.b));
    },
  );
  server.registerTool(
    'echo',
    { description: 'Answers with the text it is given.', inputSchema: { text: z.string() } },
    (args) => {
      record('echo', args);
      return text(args.text);
    },
  );
  server.registerTool(
    'slow',
    { description: 'Waits the given milliseconds, then answers.', inputSchema: { ms: z.number() } },
    async (args, extra) => {
      const call = record('slow', args);
      try {
        await sleep(args.ms, undefined, { signal: extra.signal });
      } catch {
        call.aborted = true;
        return text('aborted');
      }
      return text(`waited ${args.ms} ms`);
    },
  );
  if (idempotentLookup)
    server.registerTool(
      'slow_lookup',
      {
        description: 'Looks a key up, slowly: waits the given milliseconds; safe to call again.',
        inputSchema: { ms: z.number(), key: z.string() },
        annotations: { idempotentHint: true },
      },
      async (args, extra) => {
        const call = record('slow_lookup', args);
        try {
          await sleep(args.ms, undefined, { signal: extra.signal });
        } catch {
          call.aborted = true;
          return text('aborted');
        }
        return text(`found ${args.key}`);
      },
    );
  server.registerTool('fail', { description: 'Always fails.', inputSchema: {} }, (args) => {
    record('fail', args);
    throw new Error('The tool failed on purpose.');
  });
  server.registerTool(
    'delete_record',
    { description: 'Deletes a record (a call that should need approval).', inputSchema: { id: z.string() } },
    (args) => {
      record('delete_record', args);
      return text(`deleted ${args.id}`);
    },
  );
  return server;
}

/**
 * A real MCP server built with the SDK on 127.0.0.1, speaking Streamable HTTP (one session per
 * client) on `/mcp` and the legacy SSE transport on `/sse` + `/messages`.
 */
export async function startMcpTestServer(options: McpTestServerOptions = {}): Promise<McpTestServer> {
  const mcpPath = options.mcpPath ?? '/mcp';
  const calls: McpTestCall[] = [];
  const requests: McpTestServer['requests'] = [];
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const legacy = new Map<string, SSEServerTransport>();
  const servers = new Set<McpServer>();

  const connect = async (transport: StreamableHTTPServerTransport | SSEServerTransport): Promise<void> => {
    const server = buildServer(calls, options.idempotentLookup === true);
    servers.add(server);
    await server.connect(transport);
  };

  const serveLegacyStream = async (res: ServerResponse): Promise<void> => {
    const transport = new SSEServerTransport(MESSAGES_PATH, res);
    legacy.set(transport.sessionId, transport);
    res.on('close', () => legacy.delete(transport.sessionId));
    await connect(transport);
  };

  const serveStreamable = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (typeof sessionId === 'string' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void streamable.set(id, transport),
      onsessionclosed: (id) => void streamable.delete(id),
    });
    await connect(transport);
    await transport.handleRequest(req, res);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headers.authorization,
      traceparent: typeof req.headers.traceparent === 'string' ? req.headers.traceparent : undefined,
    });
    if (options.bearer !== undefined && req.headers.authorization !== `Bearer ${options.bearer}`) {
      res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    if (url.pathname === mcpPath && options.legacyOnly) {
      // A legacy server: POST is refused, GET opens the SSE stream (what a fallback client tries next).
      if (req.method === 'GET') return serveLegacyStream(res);
      res.writeHead(405, { Allow: 'GET' }).end();
      return;
    }
    if (url.pathname === mcpPath) return serveStreamable(req, res);
    if (url.pathname === SSE_PATH && req.method === 'GET') return serveLegacyStream(res);
    if (url.pathname === MESSAGES_PATH && req.method === 'POST') {
      const transport = legacy.get(url.searchParams.get('sessionId') ?? '');
      if (!transport) {
        res.writeHead(404).end();
        return;
      }
      return transport.handlePostMessage(req, res);
    }
    res.writeHead(url.pathname === SSE_PATH ? 405 : 404).end();
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = http.address() as { port: number };
  const base = `http://127.0.0.1:${port}`;

  return {
    url: `${base}${mcpPath}`,
    sseUrl: `${base}${SSE_PATH}`,
    calls,
    requests,
    stop: async () => {
      await Promise.allSettled([...servers].map((server) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

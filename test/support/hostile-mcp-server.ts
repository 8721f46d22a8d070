import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Server as McpLowLevelServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { IncomingMessage, Server, ServerResponse, createServer } from 'node:http';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { TEST_ENV } from 'test/support/test-database';

export interface HostileMcpOptions {
  /** Tools the listing server lists, `pageSize` a page. */
  listedTools: number;
  pageSize: number;
  /** Characters of the `huge` tool's text. */
  hugeChars: number;
  /** Characters of the `large` tool's text. */
  largeChars: number;
}

/** Real MCP servers (official SDK, Streamable HTTP) that send more than a client should read. */
export interface HostileMcpServer {
  /** Lists `listedTools` tools over `nextCursor` pages. */
  listingUrl: string;
  /** Offers `huge` and `large` (text of their sizes) and `echo`. */
  outputsUrl: string;
  /** The `tools/list` pages asked for, by cursor (`undefined` for the first). */
  listPages: (string | undefined)[];
  stop(): Promise<void>;
}

const LISTING_PATH = '/listing';
const OUTPUTS_PATH = '/outputs';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

function listingServer(options: HostileMcpOptions, pages: (string | undefined)[]): McpLowLevelServer {
  const server = new McpLowLevelServer(
    { name: 'many-tools', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    pages.push(cursor);
    const start = Number(cursor ?? 0);
    const end = Math.min(options.listedTools, start + options.pageSize);
    const tools = [];
    for (let i = start; i < end; i++) {
      tools.push({
        name: `tool_${i}`,
        description: `Tool number ${i}.`,
        inputSchema: { type: 'object' as const },
      });
    }
    return { tools, ...(end < options.listedTools && { nextCursor: String(end) }) };
  });
  return server;
}

function outputsServer(options: HostileMcpOptions): McpServer {
  const server = new McpServer({ name: 'big-outputs', version: '1.0.0' });
  server.registerTool('huge', { description: 'Answers with a huge text.' }, () =>
    text('h'.repeat(options.hugeChars)),
  );
  server.registerTool('large', { description: 'Answers with a large text.' }, () =>
    text('l'.repeat(options.largeChars)),
  );
  server.registerTool(
    'echo',
    { description: 'Answers with the text it is given.', inputSchema: { text: z.string() } },
    (args) => text(args.text),
  );
  return server;
}

export async function startHostileMcpServer(options: HostileMcpOptions): Promise<HostileMcpServer> {
  const listPages: (string | undefined)[] = [];
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers = new Set<{ close(): Promise<void> }>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (path !== LISTING_PATH && path !== OUTPUTS_PATH) {
      res.writeHead(404).end();
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (typeof sessionId === 'string' || req.method !== 'POST') {
      res.writeHead(404).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    const server = path === LISTING_PATH ? listingServer(options, listPages) : outputsServer(options);
    servers.add(server);
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };

  const http: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  return {
    listingUrl: `${base}${LISTING_PATH}`,
    outputsUrl: `${base}${OUTPUTS_PATH}`,
    listPages,
    stop: async () => {
      await Promise.allSettled([...servers].map((server) => server.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** The hostile servers in a process of their own, as the test sees them. */
export interface HostileMcpProcess {
  listingUrl: string;
  outputsUrl: string;
  /** How many `tools/list` pages were asked for. */
  listPagesAsked(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Starts the hostile servers in a child process: a 50 MB answer is built and serialised there, so
 * the test process, which measures the service's latency, is not stalled by it.
 */
export async function startHostileMcpProcess(options: HostileMcpOptions): Promise<HostileMcpProcess> {
  const serviceBuild = process.env[TEST_ENV.serviceBuild];
  if (!serviceBuild)
    throw new Error(`${TEST_ENV.serviceBuild} is not set: run e2e tests through their Jest config.`);
  // The service's build is the specs' build (dist-test/).
  const entry = join(serviceBuild, 'test', 'support', 'hostile-mcp-child.js');
  const child = fork(entry, [JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  // The load the test makes yields the CPU to the service it measures.
  setPriority(child.pid!, 10);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      child.once('exit', (code) => reject(new Error(`The hostile MCP process exited with ${code}`)));
    });
  const urls = await next<{ listingUrl: string; outputsUrl: string }>();
  return {
    ...urls,
    listPagesAsked: async () => {
      const answer = next<{ pages: number }>();
      child.send('pages');
      return (await answer).pages;
    },
    stop: async () => {
      if (child.exitCode === null) child.send('stop');
      await exited;
    },
  };
}

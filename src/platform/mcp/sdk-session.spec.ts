import { describe, expect, it } from '@jest/globals';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { getEventListeners } from 'node:events';
import { SdkMcpSession, mcpClient } from 'src/platform/mcp/sdk-session';

/** A server listing `total` tools, `perPage` a page, with `description` each; it counts the pages asked for. */
async function pagedServer(total: number, perPage: number, description = '') {
  const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });
  const asked: (string | undefined)[] = [];
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    const cursor = request.params?.cursor;
    asked.push(cursor);
    const start = Number(cursor ?? 0);
    const end = Math.min(total, start + perPage);
    const tools = [];
    for (let i = start; i < end; i++)
      tools.push({ name: `tool_${i}`, description, inputSchema: { type: 'object' as const } });
    return { tools, ...(end < total || perPage === 0 ? { nextCursor: String(end) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = mcpClient();
  await client.connect(clientTransport);
  return { session: new SdkMcpSession(client), asked, close: () => client.close() };
}

describe('SdkMcpSession.listTools', () => {
  it('reads every page when no limits are given', async () => {
    const { session, asked, close } = await pagedServer(25, 10);
    try {
      const tools = await session.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(Array.from({ length: 25 }, (_, i) => `tool_${i}`));
      expect(asked).toEqual([undefined, '10', '20']);
    } finally {
      await close();
    }
  });

  it('stops asking for pages once the tools pass the limit', async () => {
    const { session, asked, close } = await pagedServer(600_000, 100);
    try {
      await expect(
        session.listTools(undefined, { maxTools: 512, maxBytes: 1_048_576 }),
      ).rejects.toMatchObject({
        code: 'protocol_error',
        message: 'The server lists more than 512 tools; the listing was not read further.',
      });
      expect(asked).toHaveLength(6);
    } finally {
      await close();
    }
  });

  it('counts the bytes of each page and stops once they pass the limit', async () => {
    const { session, asked, close } = await pagedServer(500, 10, 'd'.repeat(10_000));
    try {
      await expect(session.listTools(undefined, { maxTools: 512, maxBytes: 250_000 })).rejects.toMatchObject({
        message: "The server's tool list takes more than 250000 bytes; the listing was not read further.",
      });
      expect(asked).toHaveLength(3);
    } finally {
      await close();
    }
  });

  it('stops a listing of empty pages that never ends', async () => {
    const { session, asked, close } = await pagedServer(0, 0);
    try {
      await expect(session.listTools(undefined, { maxTools: 20, maxBytes: 1_048_576 })).rejects.toMatchObject(
        {
          message: "The server's tool list has more than 20 pages; the listing was not read further.",
        },
      );
      expect(asked).toHaveLength(21);
    } finally {
      await close();
    }
  });
});

describe('SdkMcpSession signals', () => {
  it('leaves no abort listener on the signals it is given, however many requests use them', async () => {
    const { session, close } = await pagedServer(30, 1);
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      await session.listTools(run.signal);
      for (let i = 0; i < 20; i++)
        await session.callTool('tool_0', {}, { signal: run.signal, timeoutMs: 1_000 });
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await close();
    }
  });
});

describe('SdkMcpSession output schemas', () => {
  it("checks a tool's answer against the output schema it listed, compiling it when first needed", async () => {
    const server = new Server({ name: 'typed', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        {
          name: 'count',
          inputSchema: { type: 'object' as const },
          outputSchema: { type: 'object' as const, properties: { n: { type: 'number' } }, required: ['n'] },
        },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => ({
      content: [{ type: 'text', text: 'counted' }],
      structuredContent: { n: request.params.arguments?.valid ? 3 : 'three' },
    }));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = mcpClient();
    await client.connect(clientTransport);
    const session = new SdkMcpSession(client);
    try {
      await session.listTools();
      const options = { signal: new AbortController().signal, timeoutMs: 1_000 };
      expect(await session.callTool('count', { valid: true }, options)).toEqual({
        isError: false,
        content: [{ type: 'text', text: 'counted' }],
      });
      await expect(session.callTool('count', { valid: false }, options)).rejects.toThrow(/output schema/);
    } finally {
      await client.close();
    }
  });
});

import { describe, expect, it } from '@jest/globals';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { connectInProcess } from 'src/platform/mcp/in-process-mcp';

function server(): McpServer {
  const mcp = new McpServer({ name: 'test', version: '1.0.0' });
  mcp.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: { a: z.number(), b: z.number() } },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  mcp.registerTool('slow', { description: 'Takes its time.' }, async (extra) => {
    await sleep(5_000, undefined, { signal: extra.signal }).catch(() => undefined);
    return { content: [{ type: 'text', text: 'late' }] };
  });
  return mcp;
}

describe('connectInProcess', () => {
  it('lists tools with their JSON Schema and calls them', async () => {
    const session = await connectInProcess(server());
    try {
      const tools = await session.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['add', 'slow']);
      expect(tools[0].inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
      const output = await session.callTool(
        'add',
        { a: 2, b: 3 },
        { signal: new AbortController().signal, timeoutMs: 1_000 },
      );
      expect(output).toEqual({ isError: false, content: [{ type: 'text', text: '5' }] });
    } finally {
      await session.close();
    }
  });

  it('reports invalid arguments as a tool error, and a call past its timeout as McpCallTimeout', async () => {
    const session = await connectInProcess(server());
    try {
      const invalid = await session.callTool(
        'add',
        { a: 'x' },
        { signal: new AbortController().signal, timeoutMs: 1_000 },
      );
      expect(invalid.isError).toBe(true);
      await expect(
        session.callTool('slow', {}, { signal: new AbortController().signal, timeoutMs: 50 }),
      ).rejects.toMatchObject({ name: 'Error', timeoutMs: 50 });
    } finally {
      await session.close();
    }
  });
});

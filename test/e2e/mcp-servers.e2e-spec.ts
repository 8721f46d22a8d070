import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { untilTrue } from 'test/support/until';

describe('the test MCP server', () => {
  let server: McpTestServer;

  beforeAll(async () => {
    server = await startMcpTestServer();
  });
  afterAll(() => server.stop());

  it('answers over Streamable HTTP and the legacy SSE transport, and records calls and aborts', async () => {
    const client = new Client({ name: 'smoke', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'echo', 'slow', 'fail', 'delete_record']);
    expect(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({
      content: [{ type: 'text', text: '5' }],
    });
    expect(await client.callTool({ name: 'fail', arguments: {} })).toMatchObject({ isError: true });
    await expect(
      client.callTool({ name: 'slow', arguments: { ms: 10_000 } }, undefined, { timeout: 100 }),
    ).rejects.toThrow();
    await untilTrue(() => server.calls.some((call) => call.name === 'slow' && call.aborted === true));
    await client.close();

    const legacy = new Client({ name: 'smoke', version: '1.0.0' });
    await legacy.connect(new SSEClientTransport(new URL(server.sseUrl)));
    expect(await legacy.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'hi' }],
    });
    await legacy.close();
    expect(server.calls.map((call) => call.name)).toEqual(['add', 'fail', 'slow', 'echo']);
  });

  it('refuses a request without its bearer, and with legacyOnly refuses Streamable HTTP', async () => {
    const guarded = await startMcpTestServer({ bearer: 's3cret', legacyOnly: true });
    try {
      const denied = await fetch(guarded.url, { method: 'POST' });
      expect(denied.status).toBe(401);
      const legacyPost = await fetch(guarded.url, {
        method: 'POST',
        headers: { authorization: 'Bearer s3cret' },
      });
      expect(legacyPost.status).toBe(405);
      const client = new Client({ name: 'smoke', version: '1.0.0' });
      const headers = { authorization: 'Bearer s3cret' };
      await client.connect(new SSEClientTransport(new URL(guarded.url), { requestInit: { headers } }));
      expect((await client.listTools()).tools).toHaveLength(5);
      await client.close();
    } finally {
      await guarded.stop();
    }
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { IncomingMessage, ServerResponse, createServer, request as httpRequest } from 'node:http';
import { freePort } from 'src/platform/net/free-port';
import { AgentsService } from 'src/modules/agents/application/agents.service';
import { RunToolsetsService } from 'src/modules/agents/application/run-toolsets.service';
import { expect, expectError } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { untilTrue } from 'test/support/until';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface ServerBody {
  sId: string;
  name: string;
  url: string;
  hasSharedSecret: boolean;
  tools: { name: string; description: string; inputSchema: Record<string, unknown> }[];
  lastSyncedAt: number | null;
  lastSyncError: string | null;
  views: { sId: string; spaceId: string; requireApproval: unknown }[];
}

const TOOL_NAMES = ['add', 'echo', 'slow', 'fail', 'delete_record'];

/** What a faulty server puts in its answers; no member may ever read it. */
const MARKER = 'leaked-8d1f-internal-detail';

/** How the faulty proxy answers one JSON-RPC method instead of the real server. */
type Fault = (res: ServerResponse, id: unknown) => void;

const FAULTS: Record<string, { method: string; answer: Fault; shown: RegExp }> = {
  'list-500': {
    method: 'tools/list',
    answer: (res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`stack trace: ${MARKER}`),
    shown: /^The server did not list its tools\. The server answered HTTP 500\.$/,
  },
  'list-rpc-error': {
    method: 'tools/list',
    answer: (res, id) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: MARKER, data: MARKER } })),
    shown:
      /^The server did not list its tools\. The server answered with MCP error -32603 \(internal error\)\.$/,
  },
  'list-invalid': {
    method: 'tools/list',
    answer: (res, id) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [{ name: 7, inputSchema: MARKER }] } })),
    shown: /^The server did not list its tools\. The server's answer is not a valid MCP message\.$/,
  },
  'list-content-type': {
    method: 'tools/list',
    answer: (res) => res.writeHead(200, { 'Content-Type': `text/${MARKER}` }).end(MARKER),
    shown: /^The server did not list its tools\. The server's answer is not a valid MCP message\.$/,
  },
  'initialize-html': {
    method: 'initialize',
    answer: (res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(`<html>${MARKER}</html>`),
    shown: /^The server's answer is not a valid MCP message\.$/,
  },
  'initialize-500': {
    method: 'initialize',
    answer: (res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end(`<pre>${MARKER}</pre>`),
    shown: /^The server answered HTTP 500\.$/,
  },
};

/**
 * A proxy in front of a real MCP server that answers one method with the fault its URL names
 * (`?fault=list-500`) and passes everything else through, streams included.
 */
async function startFaultyProxy(
  upstream: string,
): Promise<{ url(fault: string): string; stop(): Promise<void> }> {
  const target = new URL(upstream);
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const headers = { ...req.headers, host: target.host };
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    outgoing.end(body);
  };
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fault = FAULTS[new URL(req.url ?? '/', 'http://proxy').searchParams.get('fault') ?? ''];
      let message: { method?: unknown; id?: unknown } = {};
      try {
        message = JSON.parse(body.toString('utf8') || '{}') as typeof message;
      } catch {
        // Not JSON: passed through as it is.
      }
      if (fault && message.method === fault.method) fault.answer(res, message.id);
      else forward(req, res, body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as { port: number };
  return {
    url: (fault) => `http://127.0.0.1:${port}/mcp?fault=${fault}`,
    stop: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

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

describe('remote MCP servers', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let builder: Actor;
  let wId: string;
  let globalSpace: string;
  let mcp: McpTestServer;
  const started: McpTestServer[] = [];

  const start = async (options?: Parameters<typeof startMcpTestServer>[0]): Promise<McpTestServer> => {
    const server = await startMcpTestServer(options);
    started.push(server);
    return server;
  };

  const register = async (body: Record<string, unknown>, actor: Actor = a.admin): Promise<ServerBody> => {
    const res = await api(t, actor).post(paths.toolServers(wId)).send(body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    expect(res.body).toMatchApiSchema('RemoteMcpServerResponse');
    return res.body.mcpServer as ServerBody;
  };

  const show = async (sId: string, actor: Actor = a.admin): Promise<ServerBody> => {
    const res = await api(t, actor)
      .get(`${paths.toolServers(wId)}/${sId}`)
      .expect(200);
    expect(res.body).toMatchApiSchema('RemoteMcpServerResponse');
    return res.body.mcpServer as ServerBody;
  };

  const sync = async (sId: string): Promise<ServerBody> => {
    const res = await api(t, a.admin)
      .post(`${paths.toolServers(wId)}/${sId}/sync`)
      .expect(200);
    expect(res.body).toMatchApiSchema('RemoteMcpServerResponse');
    return res.body.mcpServer as ServerBody;
  };

  const share = (spaceId: string, body: Record<string, unknown>) =>
    api(t, a.admin).post(paths.toolServerViews(wId, spaceId)).send(body);

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    builder = await world.member(a.workspace, 'builder');
    globalSpace = await world.globalSpace(a.admin);
    mcp = await start();
  });
  afterAll(async () => {
    await Promise.all(started.map((server) => server.stop()));
    await t.close();
  });

  it('registers a server with the tools it lists, and shows them in the list and on their own', async () => {
    const server = await register({ name: 'Tools', url: mcp.url, description: 'Test tools' });
    expect(server).toMatchObject({
      name: 'Tools',
      url: mcp.url,
      hasSharedSecret: false,
      lastSyncError: null,
    });
    expect(server.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(server.tools[0]).toEqual({
      name: 'add',
      description: 'Adds two numbers.',
      inputSchema: expect.objectContaining({
        type: 'object',
        properties: expect.objectContaining({ a: expect.anything() }),
      }),
    });
    expect(server.lastSyncedAt).toEqual(expect.any(Number));

    const listed = await api(t, builder).get(paths.toolServers(wId)).expect(200);
    expect(listed.body).toMatchApiSchema('McpServersResponse');
    const remote = listed.body.remote as ServerBody[];
    expect(remote.find((entry) => entry.sId === server.sId)).toEqual(server);
    expect(await show(server.sId, builder)).toEqual(server);
    expect(mcp.calls).toEqual([]);
  });

  it('sends the shared secret as Bearer on every request, and never shows it', async () => {
    const guarded = await start({ bearer: 'tok-7f3a9c' });
    const refused = await register({ name: 'Guarded without', url: guarded.url });
    expect(refused).toMatchObject({ hasSharedSecret: false, tools: [] });
    expect(refused.lastSyncError).toMatch(/HTTP 401/);

    guarded.requests.length = 0;
    const server = await register({ name: 'Guarded', url: guarded.url, sharedSecret: 'tok-7f3a9c' });
    expect(server).toMatchObject({ hasSharedSecret: true, lastSyncError: null });
    expect(server.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(guarded.requests.length).toBeGreaterThan(0);
    expect(guarded.requests.every((request) => request.authorization === 'Bearer tok-7f3a9c')).toBe(true);

    const listed = await api(t, a.admin).get(paths.toolServers(wId)).expect(200);
    for (const body of [server, await show(server.sId), await sync(server.sId), listed.body]) {
      expect(JSON.stringify(body)).not.toContain('tok-7f3a9c');
    }
  });

  it('falls back to the legacy SSE transport when the server does not speak Streamable HTTP', async () => {
    const legacy = await start({ legacyOnly: true });
    const server = await register({ name: 'Legacy', url: legacy.url });
    expect(server.lastSyncError).toBeNull();
    expect(server.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    const seen = legacy.requests.map((request) => `${request.method} ${request.path}`);
    expect(seen).toEqual(expect.arrayContaining(['POST /mcp', 'GET /mcp', 'POST /messages']));
    const viaSseUrl = await register({ name: 'Legacy SSE', url: legacy.sseUrl });
    expect(viaSseUrl.tools).toHaveLength(TOOL_NAMES.length);
  });

  it('registers an unreachable server with its error and no tools; a sync once it runs lists them', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const server = await register({ name: 'Late', url });
    expect(server).toMatchObject({ tools: [], lastSyncedAt: expect.any(Number) });
    expect(server.lastSyncError).toMatch(/could not be reached.*ECONNREFUSED/);

    const late = await start({ port });
    const synced = await sync(server.sId);
    expect(synced).toMatchObject({ sId: server.sId, lastSyncError: null });
    expect(synced.tools.map((tool) => tool.name)).toEqual(TOOL_NAMES);
    expect(synced.lastSyncedAt!).toBeGreaterThanOrEqual(server.lastSyncedAt!);
    expect(await show(server.sId)).toEqual(synced);

    await late.stop();
    const failed = await sync(server.sId);
    expect(failed).toMatchObject({ tools: [], lastSyncError: expect.stringMatching(/could not be reached/) });
  });

  it('refuses a URL that is not http(s) before connecting', async () => {
    for (const url of [
      'ftp://mcp.example.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'mcp.example.com',
    ]) {
      expectError(
        await api(t, a.admin).post(paths.toolServers(wId)).send({ name: 'Bad', url }),
        400,
        'invalid_request_error',
      );
    }
  });

  it('refuses a URL with a user name or password, storing nothing and sending nothing', async () => {
    mcp.requests.length = 0;
    const { host } = new URL(mcp.url);
    for (const url of [
      `http://ada:hunter2@${host}/mcp`,
      `http://sk-live-51Hx@${host}/mcp`,
      `https://:hunter2@mcp.example.com/mcp`,
    ]) {
      const res = await api(t, a.admin).post(paths.toolServers(wId)).send({ name: 'With credentials', url });
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toMatch(/^url: must not contain a user name or password/);
      expect(res.body.error.message).not.toMatch(/hunter2|sk-live/);
    }
    const listed = await api(t, builder).get(paths.toolServers(wId)).expect(200);
    expect(JSON.stringify(listed.body)).not.toMatch(/hunter2|sk-live|With credentials/);
    expect(mcp.requests).toEqual([]);
  });

  it('tells members why a server failed by status and code, never with bytes of its answer', async () => {
    const proxy = await startFaultyProxy(mcp.url);
    try {
      for (const [fault, { shown }] of Object.entries(FAULTS)) {
        const server = await register({ name: `Faulty ${fault}`, url: proxy.url(fault) });
        expect({ fault, tools: server.tools, lastSyncError: server.lastSyncError }).toEqual({
          fault,
          tools: [],
          lastSyncError: expect.stringMatching(shown),
        });
        const synced = await sync(server.sId);
        expect(synced.lastSyncError).toBe(server.lastSyncError);
        const listed = await api(t, builder).get(paths.toolServers(wId)).expect(200);
        for (const body of [server, synced, await show(server.sId, builder), listed.body]) {
          expect(JSON.stringify(body)).not.toContain(MARKER);
        }
      }
    } finally {
      await proxy.stop();
    }
  });

  describe('requireApproval on views', () => {
    let server: ServerBody;
    let sales: string;

    beforeAll(async () => {
      server = await register({ name: 'Approvals', url: mcp.url });
      sales = (await world.space(a.admin, { members: [a.admin] })).sId;
    });

    it('defaults to "never", takes "always" or tool names, and shows the setting wherever views are', async () => {
      const plain = await share(globalSpace, { mcpServerId: server.sId }).expect(200);
      expect(plain.body).toMatchApiSchema('McpServerViewResponse');
      expect(plain.body.mcpServerView).toMatchObject({ mcpServerId: server.sId, requireApproval: 'never' });

      const named = await share(sales, {
        mcpServerId: server.sId,
        requireApproval: ['delete_record'],
      }).expect(200);
      expect(named.body).toMatchApiSchema('McpServerViewResponse');
      expect(named.body.mcpServerView.requireApproval).toEqual(['delete_record']);
      const viewPath = `${paths.toolServerViews(wId, sales)}/${named.body.mcpServerView.sId as string}`;

      // Names the server does not list are kept: its tool list may change.
      const patched = await api(t, a.admin)
        .patch(viewPath)
        .send({ requireApproval: ['delete_record', 'future_tool'] })
        .expect(200);
      expect(patched.body).toMatchApiSchema('McpServerViewResponse');
      expect(patched.body.mcpServerView).toMatchObject({
        sId: named.body.mcpServerView.sId,
        spaceId: sales,
        mcpServerId: server.sId,
        requireApproval: ['delete_record', 'future_tool'],
      });
      const always = await api(t, a.admin).patch(viewPath).send({ requireApproval: 'always' }).expect(200);
      expect(always.body.mcpServerView.requireApproval).toBe('always');

      const shown = await show(server.sId);
      expect(shown.views).toEqual(
        expect.arrayContaining([
          { sId: plain.body.mcpServerView.sId, spaceId: globalSpace, requireApproval: 'never' },
          { sId: named.body.mcpServerView.sId, spaceId: sales, requireApproval: 'always' },
        ]),
      );
      const unshared = await api(t, a.admin).delete(viewPath).expect(200);
      expect(unshared.body).toMatchApiSchema('McpServerViewResponse');
      expect(unshared.body.mcpServerView.requireApproval).toBe('always');
    });

    it('refuses wrong types, unknown keys, empty and absurd lists with 400, changing nothing', async () => {
      const space = (await world.space(a.admin, { members: [a.admin] })).sId;
      const created = await share(space, { mcpServerId: server.sId, requireApproval: ['echo'] }).expect(200);
      const viewPath = `${paths.toolServerViews(wId, space)}/${created.body.mcpServerView.sId as string}`;
      const invalid: unknown[] = [
        null,
        42,
        true,
        'sometimes',
        'NEVER',
        {},
        { tools: ['echo'] },
        [],
        [''],
        [42],
        [null],
        ['echo', 'echo'],
        ['x'.repeat(129)],
        ['bad\u0000name'],
        Array.from({ length: 257 }, (_, i) => `tool_${i}`),
      ];
      for (const requireApproval of invalid) {
        const other = (await world.space(a.admin, { members: [a.admin] })).sId;
        expectError(
          await share(other, { mcpServerId: server.sId, requireApproval }),
          400,
          'invalid_request_error',
        );
        expectError(
          await api(t, a.admin).patch(viewPath).send({ requireApproval }),
          400,
          'invalid_request_error',
        );
      }
      expectError(await api(t, a.admin).patch(viewPath).send({}), 400, 'invalid_request_error');
      expectError(
        await api(t, a.admin).patch(viewPath).send({ requireApproval: 'always', spaceId: space }),
        400,
        'invalid_request_error',
      );
      expectError(
        await share(space, { mcpServerId: server.sId, requireApproval: 'never', extra: 1 }),
        400,
        'invalid_request_error',
      );
      const message = (await api(t, a.admin).patch(viewPath).send({ requireApproval: [] })).body.error
        .message;
      expect(message).toMatch(/requireApproval must list at least one tool name/);

      const longest = Array.from(
        { length: 256 },
        (_, i) => `${'t'.repeat(124)}${String(i).padStart(4, '0')}`,
      );
      const accepted = await api(t, a.admin).patch(viewPath).send({ requireApproval: longest }).expect(200);
      expect(accepted.body.mcpServerView.requireApproval).toEqual(longest);
      const views = (await show(server.sId)).views.filter((view) => view.spaceId !== globalSpace);
      expect(views.map((view) => view.spaceId)).toEqual([space]);
    });
  });

  it("answers 404 for another workspace's server and view, and for a view of another space", async () => {
    const server = await register({ name: 'Private', url: mcp.url });
    const space = (await world.space(a.admin, { members: [a.admin] })).sId;
    const view = await share(space, { mcpServerId: server.sId }).expect(200);
    const viewId = view.body.mcpServerView.sId as string;
    const bId = b.workspace.sId;
    const bSpace = await world.globalSpace(b.admin);

    expectError(await api(t, b.admin).get(`${paths.toolServers(bId)}/${server.sId}`), 404, 'not_found');
    expectError(await api(t, b.admin).post(`${paths.toolServers(bId)}/${server.sId}/sync`), 404, 'not_found');
    expectError(
      await api(t, b.admin).post(paths.toolServerViews(bId, bSpace)).send({ mcpServerId: server.sId }),
      404,
      'not_found',
    );
    expectError(
      await api(t, b.admin)
        .patch(`${paths.toolServerViews(bId, bSpace)}/${viewId}`)
        .send({ requireApproval: 'always' }),
      404,
      'not_found',
    );
    expectError(
      await api(t, b.admin)
        .patch(`${paths.toolServerViews(bId, space)}/${viewId}`)
        .send({ requireApproval: 'always' }),
      404,
      'space_not_found',
    );
    expectError(
      await api(t, a.admin)
        .patch(`${paths.toolServerViews(wId, globalSpace)}/${viewId}`)
        .send({ requireApproval: 'always' }),
      404,
      'not_found',
    );
    expectError(await api(t, a.admin).get(`${paths.toolServers(wId)}/mcp_unknown0000`), 404, 'not_found');
    expect((await show(server.sId)).views).toEqual([
      { sId: viewId, spaceId: space, requireApproval: 'never' },
    ]);
  });

  it('needs the admin scope and role to register, sync and change views; reading needs read:agent', async () => {
    const server = await register({ name: 'Scoped', url: mcp.url });
    const view = await share(globalSpace, { mcpServerId: server.sId }).expect(200);
    const viewPath = `${paths.toolServerViews(wId, globalSpace)}/${view.body.mcpServerView.sId as string}`;
    const narrow = await world.key(a.admin, ['read:agent']);
    const noRead = await world.key(a.admin, ['admin']);
    const attempts = (actor: Actor) => [
      api(t, actor).post(paths.toolServers(wId)).send({ name: 'Nope', url: mcp.url }),
      api(t, actor).post(`${paths.toolServers(wId)}/${server.sId}/sync`),
      api(t, actor).patch(viewPath).send({ requireApproval: 'always' }),
    ];
    for (const res of await Promise.all(attempts(narrow))) expectError(res, 403, 'insufficient_key_scope');
    for (const res of await Promise.all(attempts(builder))) expectError(res, 403, 'workspace_auth_error');
    expectError(
      await api(t, noRead).get(`${paths.toolServers(wId)}/${server.sId}`),
      403,
      'insufficient_key_scope',
    );
    expect((await show(server.sId)).views[0].requireApproval).toBe('never');
  });

  it('tells a run which servers it may use now, and why not when one was unshared after the agent was saved', async () => {
    const server = await register({ name: 'Runnable', url: mcp.url, sharedSecret: 'run-secret' });
    const space = (await world.space(a.admin, { members: [a.admin, builder] })).sId;
    const view = await share(space, { mcpServerId: server.sId, requireApproval: ['delete_record'] }).expect(
      200,
    );
    const broken = await register({ name: 'Broken', url: `http://127.0.0.1:${await freePort()}/mcp` });
    await share(space, { mcpServerId: broken.sId }).expect(200);
    const agent = await world.agent(builder, {
      actions: [
        { name: 'run_agent', mcpServerName: 'run_agent' },
        { name: 'runnable', mcpServerName: 'Runnable' },
        { name: 'broken', mcpServerName: 'Broken' },
      ],
    });
    const caller = await world.caller(a.workspace, builder.user);
    const toolset = async () => {
      const [details] = await t.app.get(AgentsService).describe(caller, [agent.sId]);
      return t.app.get(RunToolsetsService).resolve(caller, details.agent.actions);
    };

    const before = await toolset();
    expect(before).toEqual([
      { kind: 'internal', name: 'run_agent' },
      {
        kind: 'remote',
        name: 'Runnable',
        mcpServerSId: server.sId,
        target: { url: mcp.url, sharedSecret: 'run-secret' },
        tools: server.tools,
        requireApproval: ['delete_record'],
      },
      {
        kind: 'unavailable',
        name: 'Broken',
        reason: expect.stringMatching(
          /"Broken" failed its last synchronisation: The server could not be reached/,
        ),
      },
    ]);

    await api(t, a.admin)
      .delete(`${paths.toolServerViews(wId, space)}/${view.body.mcpServerView.sId as string}`)
      .expect(200);
    const after = await toolset();
    expect(after[1]).toEqual({
      kind: 'unavailable',
      name: 'Runnable',
      reason: 'The tool server "Runnable" is no longer shared to a space you can access.',
    });
    expect(mcp.calls).toEqual([]);
  });
});

describe('remote MCP servers without private networks', () => {
  let t: TestApp;
  let strict: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let mcp: McpTestServer;

  beforeAll(async () => {
    t = await createTestApp();
    strict = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { MCP_ALLOW_PRIVATE_NETWORKS: false },
    });
    world = new World(t);
    a = await world.workspace();
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    await mcp.stop();
    await strict.close();
    await t.close();
  });

  it('refuses loopback, link-local and names resolving to them, storing nothing and sending nothing', async () => {
    const wId = a.workspace.sId;
    const port = new URL(mcp.url).port;
    const urls = [
      mcp.url,
      `http://localhost:${port}/mcp`,
      'http://[::1]/',
      `http://[::ffff:127.0.0.1]:${port}/mcp`,
      `http://[::127.0.0.1]:${port}/mcp`,
      'http://[::a00:1]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/mcp',
      'http://0.0.0.0/',
      'http://2130706433/',
      'ftp://mcp.example.com/',
    ];
    for (const url of urls) {
      const res = await api(strict, a.admin).post(paths.toolServers(wId)).send({ name: 'Internal', url });
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toMatch(/^url/);
    }
    const listed = await api(strict, a.admin).get(paths.toolServers(wId)).expect(200);
    expect(listed.body.remote).toEqual([]);
    expect(mcp.requests).toEqual([]);
  });

  it('checks the address again at every connection: a sync to a now-forbidden address fails', async () => {
    const wId = a.workspace.sId;
    const registered = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'Loopback', url: mcp.url })
      .expect(200);
    const server = registered.body.mcpServer as ServerBody;
    expect(server.tools).toHaveLength(TOOL_NAMES.length);
    const requests = mcp.requests.length;

    const synced = await api(strict, a.admin)
      .post(`${paths.toolServers(wId)}/${server.sId}/sync`)
      .expect(200);
    expect(synced.body).toMatchApiSchema('RemoteMcpServerResponse');
    expect(synced.body.mcpServer).toMatchObject({
      tools: [],
      lastSyncError: expect.stringContaining('not allowed'),
    });
    expect(mcp.requests).toHaveLength(requests);
  });
});

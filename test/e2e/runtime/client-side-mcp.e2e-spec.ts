import { afterAll, beforeAll, describe, it, jest } from '@jest/globals';
import { DustAPI, type LoggerInterface } from '@dust-tt/client';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type request from 'supertest';
import { z } from 'zod';
import { ClientMcpStore } from 'src/modules/runtime/application/ports/client-mcp-store';
import { DustClientTransport } from 'test/support/client-side-mcp';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { SseConnection, endsWithin, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

interface Action {
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  status: string;
  step: number;
  output: { type: string; text: string }[] | null;
}
type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

/** The request is refused with `status` and `type`, its message matching `message` when given. */
async function refused(
  pending: PromiseLike<request.Response>,
  status: number,
  type: string,
  message?: RegExp,
) {
  const res = await pending;
  expectError(res, status, type);
  if (message) expect((res.body as { error: { message: string } }).error.message).toMatch(message);
}

const quiet: LoggerInterface = { error: () => {}, info: () => {}, trace: () => {}, warn: () => {} };
const mcpPath = (wId: string, route: string) => `/api/v1/w/${wId}/mcp/${route}`;

/** The sweep drops a server 1.5 s after its last heartbeat, checking every 375 ms. */
const SERVER_TIMEOUT_MS = 1_500;

describe('client-side MCP servers', () => {
  let t: TestApp;
  /** A second process on the same database: the client talks to it, the runs happen on `t`. */
  let other: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let colleague: Actor;
  let wId: string;
  let agent: string;
  const lent: { server: McpServer; transport: DustClientTransport }[] = [];
  /** Tool calls that never answer until the test ends. */
  const hanging: (() => void)[] = [];

  const dustFor = async (target: TestApp, actor: KeyHolder) =>
    new DustAPI(
      { url: await target.listen() },
      { apiKey: actor.secret, workspaceId: actor.workspace.sId },
      quiet,
    );

  /** An SDK server with `count_files` and `wait_forever`, lent by `actor`'s client through `target`. */
  async function lend(actor: KeyHolder, serverName: string, target = other): Promise<DustClientTransport> {
    const server = new McpServer({ name: serverName, version: '1.0.0' });
    server.registerTool(
      'count_files',
      { description: 'Counts the files of a local folder.', inputSchema: { dir: z.string() } },
      ({ dir }) => ({ content: [{ type: 'text', text: `3 files in ${dir}` }] }),
    );
    server.registerTool('big_output', { description: 'Answers 20,000 bytes.', inputSchema: {} }, () => ({
      content: [{ type: 'text', text: 'x'.repeat(20_000) }],
    }));
    server.registerTool(
      'wait_forever',
      { description: 'Never answers.', inputSchema: {} },
      () => new Promise((resolve) => hanging.push(() => resolve({ content: [] }))),
    );
    const transport = new DustClientTransport(await dustFor(target, actor), serverName);
    await server.connect(transport);
    transport.startBeating(250);
    lent.push({ server, transport });
    return transport;
  }

  /**
   * Posts `content` mentioning the agent, lending `serverIds`; answers the settled agent message.
   * Its author approves its calls in advance (`skipToolsValidation`): lent tools otherwise wait.
   */
  async function ask(actor: KeyHolder, content: string, serverIds: unknown): Promise<AgentMessage> {
    const created = await api(t, actor)
      .post(paths.conversations(actor.workspace.sId))
      .send({
        message: {
          content,
          mentions: [{ configurationId: agent }],
          context: { username: 'ada', timezone: 'UTC', clientSideMCPServerIds: serverIds },
        },
        skipToolsValidation: true,
      })
      .expect(200);
    const cId = (created.body.conversation as { sId: string }).sId;
    // Read raw: the actions' fields Dust's 1.2.8 client adds are another change's.
    const answer = await until(
      async () => {
        const res = await api(t, actor).get(paths.messages(actor.workspace.sId, cId)).expect(200);
        return (res.body.messages as AgentMessage[]).find((message) => message.type === 'agent_message');
      },
      (found) => found !== undefined && found.status !== 'created',
    );
    return answer!;
  }

  const env = {
    RUN_HEARTBEAT_MS: 200,
    LOCAL_MODEL_CHUNK_DELAY_MS: 0,
    TOOL_CALL_TIMEOUT_MS: 20_000,
    CLIENT_MCP_SERVER_TIMEOUT_MS: SERVER_TIMEOUT_MS,
    CLIENT_MCP_REQUESTS_WAIT_MS: 1_000,
    CLIENT_MCP_CONNECT_TIMEOUT_MS: 5_000,
    TOOL_OUTPUT_MAX_BYTES: 4_096,
    MCP_MESSAGE_MAX_BYTES: 65_536,
  };

  beforeAll(async () => {
    t = await createTestApp({ env });
    other = await createTestApp({ env, databaseUrl: t.config.databaseUrl! });
    world = new World(t);
    a = await world.workspace();
    b = await world.workspace();
    wId = a.workspace.sId;
    colleague = await world.member(a.workspace, 'user');
    agent = (await world.agent(a.admin, { instructions: 'Use the tools you are lent.', actions: [] })).sId;
  });
  afterAll(async () => {
    for (const release of hanging) release();
    for (const { transport } of lent) await transport.close();
    await other?.close();
    await t?.close();
  });

  it("lends a tool to the author's run: a request queued on one process reaches the client polling another", async () => {
    const transport = await lend(a.admin, 'laptop-files');
    const message = await ask(a.admin, '/tool laptop-files__count_files {"dir": "docs"}', [
      transport.serverId,
    ]);

    expect(message).toMatchObject({
      status: 'succeeded',
      content: 'laptop-files__count_files answered: 3 files in docs',
    });
    expect(message.actions).toEqual([
      expect.objectContaining({
        functionCallName: 'laptop-files__count_files',
        mcpServerName: 'laptop-files',
        toolName: 'count_files',
        status: 'succeeded',
        output: [{ type: 'text', text: '3 files in docs' }],
      }),
    ]);
    // The run spoke MCP to the client: handshake, listing, then the call, each through the stream.
    const methods = transport.received.map((request) => (request as { method?: string }).method);
    expect(methods).toEqual(
      expect.arrayContaining(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']),
    );
    // The stream ends with `done` after CLIENT_MCP_REQUESTS_WAIT_MS and the client resumes from its last event.
    await until(
      () => Promise.resolve(transport.reconnections),
      (count) => count >= 1,
    );
  });

  it("reads a client's answer within MCP_MESSAGE_MAX_BYTES and cuts it to TOOL_OUTPUT_MAX_BYTES for the model", async () => {
    const transport = await lend(a.admin, 'big-laptop');
    const message = await ask(a.admin, '/tool big-laptop__big_output {}', [transport.serverId]);
    const output = message.actions[0].output![0].text;
    expect(message.actions[0].status).toBe('succeeded');
    expect(output).toMatch(
      /^x{4096}\n\[Output truncated: the tool returned 20000 bytes; only the first 4096 are shown\.\]$/,
    );
    // An answer past MCP_MESSAGE_MAX_BYTES (and the 1 MiB every body may take) is not read.
    await refused(
      api(t, a.admin)
        .post(mcpPath(wId, 'results'))
        .send({
          serverId: transport.serverId,
          result: { jsonrpc: '2.0', id: '1', result: { text: 'x'.repeat(1_200_000) } },
        }),
      413,
      'payload_too_large',
    );
  });

  it('registers and heartbeats through the 1.2.8 client, whose parsing accepts the answers', async () => {
    const dust = await dustFor(t, a.admin);
    const registered = await dust.registerMCPServer({ serverName: 'cli-tools' });
    expect(registered.isOk()).toBe(true);
    const { serverId, expiresAt } = registered.isOk() ? registered.value : { serverId: '', expiresAt: '' };
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
    const beat = await dust.heartbeatMCPServer({ serverId });
    expect(beat.isOk() && beat.value).toEqual({ success: true, expiresAt: expect.any(String) });
  });

  it('drops a server whose client stops beating, failing its pending call with a clear error', async () => {
    const transport = await lend(a.admin, 'flaky-laptop');
    const answered = ask(a.admin, '/tool flaky-laptop__wait_forever {}', [transport.serverId]);
    // The call reached the client; then the client goes silent.
    await until(
      () =>
        Promise.resolve(transport.received.some((r) => (r as { method?: string }).method === 'tools/call')),
      (arrived) => arrived,
    );
    transport.stopBeating();
    const message = await answered;

    expect(message.status).toBe('succeeded');
    expect(message.actions).toEqual([
      expect.objectContaining({ toolName: 'wait_forever', status: 'failed' }),
    ]);
    const output = message.actions[0].output![0].text;
    expect(output).toContain('The client-side MCP server "flaky-laptop" was dropped');
    expect(output).toContain('no heartbeat for 2 s');
    // Gone for good: its heartbeat is 404, as is its stream.
    await api(t, a.admin).post(mcpPath(wId, 'heartbeat')).send({ serverId: transport.serverId }).expect(404);
    await api(t, a.admin)
      .get(`${mcpPath(wId, 'requests')}?serverId=${transport.serverId}`)
      .expect(404);
  });

  it("keeps servers to their member: another member's or workspace's server id is 404 and lends nothing", async () => {
    const transport = await lend(a.admin, 'private-box');
    const serverId = transport.serverId;
    for (const actor of [colleague, b.admin]) {
      const wIdOf = actor.workspace.sId;
      await refused(api(t, actor).post(mcpPath(wIdOf, 'heartbeat')).send({ serverId }), 404, 'not_found');
      await refused(
        api(t, actor).get(`${mcpPath(wIdOf, 'requests')}?serverId=${serverId}`),
        404,
        'not_found',
      );
      await refused(
        api(t, actor)
          .post(mcpPath(wIdOf, 'results'))
          .send({ serverId, result: { jsonrpc: '2.0', id: '1', result: {} } }),
        404,
        'not_found',
      );
    }
    // A colleague naming the admin's server gets no tool from it: the run says why.
    const message = await ask(colleague, '/tool private-box__count_files {"dir": "secrets"}', [serverId]);
    expect(message.status).toBe('succeeded');
    expect(message.actions).toEqual([
      expect.objectContaining({
        step: -1,
        status: 'failed',
        output: [
          {
            type: 'text',
            text: `Not offered to this run: The client-side MCP server ${serverId} is not registered by the message's author, or was dropped.`,
          },
        ],
      }),
    ]);
    expect(transport.received.some((r) => (r as { method?: string }).method === 'tools/call')).toBe(false);
  });

  it("asks its author's approval before a lent tool runs, through the 1.2.8 client's calls", async () => {
    const transport = await lend(a.admin, 'asking-laptop');
    const dust = await dustFor(t, a.admin);
    const calls = () =>
      transport.received.filter((r) => (r as { method?: string }).method === 'tools/call').length;

    /** Asks through the client, answers the approval with `approved`, and streams to the outcome. */
    async function askApproving(dir: string, approved: 'approved' | 'rejected') {
      const created = await dust.createConversation({
        title: null,
        visibility: 'unlisted',
        message: {
          content: `/tool asking-laptop__count_files {"dir": "${dir}"}`,
          mentions: [{ configurationId: agent }],
          context: { username: 'ada', timezone: 'UTC', clientSideMCPServerIds: [transport.serverId] },
        },
        blocking: false,
        skipToolsValidation: false,
      });
      if (created.isErr()) throw new Error(created.error.message);
      const { conversation, message } = created.value;
      const streamed = await dust.streamAgentAnswerEvents({ conversation, userMessageId: message!.sId });
      if (streamed.isErr()) throw new Error(JSON.stringify(streamed.error));
      const seen: string[] = [];
      for await (const event of streamed.value.eventStream) {
        seen.push(event.type);
        if (event.type === 'tool_approve_execution') {
          // Nothing reached the laptop while the call waits.
          expect({
            calls: calls(),
            tool: event.metadata.toolName,
            server: event.metadata.mcpServerName,
          }).toEqual({
            calls: callsBefore,
            tool: 'count_files',
            server: 'asking-laptop',
          });
          // Only the author (or an admin) answers: a colleague may not.
          const byColleague = await (
            await dustFor(t, colleague)
          ).validateAction({
            conversationId: conversation.sId,
            messageId: event.messageId,
            actionId: event.actionId,
            approved: 'approved',
          });
          expect(byColleague.isErr()).toBe(true);
          const answered = await dust.validateAction({
            conversationId: conversation.sId,
            messageId: event.messageId,
            actionId: event.actionId,
            approved,
          });
          expect(answered.isOk()).toBe(true);
        }
      }
      const read = await dust.getConversation({ conversationId: conversation.sId });
      if (read.isErr()) throw new Error(read.error.message);
      const answer = read.value.content.flat().find((m) => m.type === 'agent_message');
      return { seen, answer: answer?.type === 'agent_message' ? answer : undefined };
    }

    let callsBefore = calls();
    const approvedRun = await askApproving('src', 'approved');
    expect(approvedRun.seen).toEqual(
      expect.arrayContaining(['tool_approve_execution', 'agent_action_success', 'agent_message_success']),
    );
    expect(calls()).toBe(callsBefore + 1);
    expect(approvedRun.answer?.content).toBe('asking-laptop__count_files answered: 3 files in src');

    callsBefore = calls();
    const refusedRun = await askApproving('secrets', 'rejected');
    expect(refusedRun.seen).toEqual(expect.arrayContaining(['tool_approve_execution', 'tool_error']));
    expect(calls()).toBe(callsBefore);
    expect(refusedRun.answer?.actions.map((action) => action.status)).toEqual(['denied']);
  });

  it("lends nothing to a retry by another member: its calls would wait for that member's approval", async () => {
    const transport = await lend(a.admin, 'retried-laptop');
    const calls = () =>
      transport.received.filter((r) => (r as { method?: string }).method === 'tools/call').length;
    const created = await api(t, a.admin)
      .post(paths.conversations(wId))
      .send({
        message: {
          content: '/tool retried-laptop__count_files {"dir": "docs"}',
          mentions: [{ configurationId: agent }],
          context: { username: 'ada', timezone: 'UTC', clientSideMCPServerIds: [transport.serverId] },
        },
        skipToolsValidation: true,
      })
      .expect(200);
    const cId = (created.body.conversation as { sId: string }).sId;
    const [first] = (await world.settled(a.admin, cId)).filter((m) => m.type === 'agent_message');
    expect(calls()).toBe(1);

    const retried = await api(t, colleague)
      .post(`${paths.messages(wId, cId)}/${first.sId}/retry`)
      .expect(200);
    const again = await until(
      async () => {
        const res = await api(t, a.admin).get(paths.messages(wId, cId)).expect(200);
        return (res.body.messages as AgentMessage[]).find((m) => m.sId === retried.body.message.sId);
      },
      (found) => found !== undefined && found.status !== 'created',
    );
    expect(again!.actions).toEqual([
      expect.objectContaining({
        step: -1,
        status: 'failed',
        output: [
          {
            type: 'text',
            text: `Not offered to this run: The client-side MCP server ${transport.serverId} is lent to runs acting for the message's author only.`,
          },
        ],
      }),
    ]);
    expect(calls()).toBe(1);
  });

  it("registers with a member's key, as Dust registers with a user's token: its member's, scoped", async () => {
    const count = async () =>
      Number(
        (await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM client_mcp_servers'))[0].n,
      );
    const before = await count();
    // A member of their own: the limit of servers per member is another test's.
    const lender = await world.member(a.workspace, 'user');
    // A key without write:conversation lends nothing.
    const readOnly = await world.key({ user: lender.user, workspace: a.workspace }, ['read:conversation']);
    await refused(
      api(t, readOnly).post(mcpPath(wId, 'register')).send({ serverName: 'read-only-box' }),
      403,
      'insufficient_key_scope',
    );
    // Another workspace's key is refused on this workspace, as on every route.
    await refused(
      api(t, b.admin).post(mcpPath(wId, 'register')).send({ serverName: 'foreign-box' }),
      401,
      'workspace_auth_error',
    );
    expect(await count()).toBe(before);
    // The member's own key registers a server that is theirs, in their workspace.
    const registered = await api(t, lender)
      .post(mcpPath(wId, 'register'))
      .send({ serverName: 'colleague-box' })
      .expect(200);
    const [row] = await t.dataSource.query<{ user_id: number; workspace_id: number }[]>(
      'SELECT user_id, workspace_id FROM client_mcp_servers WHERE s_id = $1',
      [registered.body.serverId],
    );
    expect(row).toEqual({ user_id: lender.user.id, workspace_id: a.workspace.id });
  });

  it('answers bad input with a 400 envelope and registers nothing', async () => {
    const register = (body: unknown) =>
      api(t, a.admin)
        .post(mcpPath(wId, 'register'))
        .send(body as object);
    await refused(register({}), 400, 'invalid_request_error');
    await refused(register({ serverName: 'abc' }), 400, 'invalid_request_error', /5 to 30 characters/);
    await refused(register({ serverName: 'x'.repeat(31) }), 400, 'invalid_request_error');
    await refused(register({ serverName: 'my\u202eserver' }), 400, 'invalid_request_error', /U\+202E/);
    await refused(register({ serverName: 'fine-name', extra: 1 }), 400, 'invalid_request_error');
    await refused(
      api(t, a.admin).post(mcpPath(wId, 'heartbeat')).send({ serverId: 'not an id!' }),
      400,
      'invalid_request_error',
    );
    await refused(api(t, a.admin).get(mcpPath(wId, 'requests')), 400, 'invalid_request_error');
    // A member holds 16 servers at once; the 17th is refused. On a process whose servers live a
    // minute without a heartbeat: with this file's 1.5 s, a slow machine let the first expire.
    const patient = await createTestApp({
      env: { ...env, CLIENT_MCP_SERVER_TIMEOUT_MS: 60_000 },
      databaseUrl: t.config.databaseUrl!,
    });
    try {
      for (let i = 0; i < 16; i++) {
        await api(patient, colleague)
          .post(mcpPath(wId, 'register'))
          .send({ serverName: `box-${i}-tools` })
          .expect(200);
      }
      await refused(
        api(patient, colleague).post(mcpPath(wId, 'register')).send({ serverName: 'one-too-many' }),
        400,
        'invalid_request_error',
        /already have 16 client-side MCP servers/,
      );
    } finally {
      await patient.close();
    }
    const transport = await lend(a.admin, 'checked-box');
    await refused(
      api(t, a.admin).get(`${mcpPath(wId, 'requests')}?serverId=${transport.serverId}&lastEventId=abc`),
      400,
      'invalid_request_error',
    );
    const results = (result: unknown) =>
      api(t, a.admin).post(mcpPath(wId, 'results')).send({ serverId: transport.serverId, result });
    await refused(results('text'), 400, 'invalid_request_error');
    await refused(results({ jsonrpc: '2.0', result: {} }), 400, 'invalid_request_error', /id/);
    await refused(results({ jsonrpc: '2.0', id: '999999', result: {} }), 404, 'not_found');
    // A notification is taken and set aside.
    await api(t, a.admin)
      .post(mcpPath(wId, 'results'))
      .send({ serverId: transport.serverId, result: { jsonrpc: '2.0', method: 'notifications/progress' } })
      .expect(200, { success: true });
    const post = (ids: unknown) =>
      api(t, a.admin)
        .post(paths.conversations(wId))
        .send({
          message: {
            content: 'hi',
            mentions: [],
            context: { username: 'ada', timezone: 'UTC', clientSideMCPServerIds: ids },
          },
        });
    await refused(post('one'), 400, 'invalid_request_error');
    await refused(post(['bad id!']), 400, 'invalid_request_error');
    await refused(post(Array.from({ length: 9 }, (_, i) => `srv${i}`)), 400, 'invalid_request_error');
  });
  /** A process on the same database whose request streams and servers last minutes: only access or caps end them. */
  const patientApp = () =>
    createTestApp({
      env: { ...env, CLIENT_MCP_SERVER_TIMEOUT_MS: 600_000, CLIENT_MCP_REQUESTS_WAIT_MS: 600_000 },
      databaseUrl: t.config.databaseUrl!,
    });

  it('caps request streams as event streams are capped: the 51st of a key is a 429 rate_limit_error', async () => {
    const patient = await patientApp();
    const open: SseConnection[] = [];
    try {
      const key = await world.key(a.admin);
      const registered = await api(patient, key)
        .post(mcpPath(wId, 'register'))
        .send({ serverName: 'many-streams' })
        .expect(200);
      const url = `${await patient.listen()}${mcpPath(wId, 'requests')}?serverId=${registered.body.serverId}`;
      const auth = { Authorization: `Bearer ${key.secret}` };
      for (let i = 0; i < 50; i++) open.push(await openSse(url, auth));
      expect(open.every((stream) => stream.status === 200)).toBe(true);

      const over = await openSse(url, auth);
      expect(over.status).toBe(429);
      const body: unknown = JSON.parse(await over.body());
      expect(body).toEqual({
        error: { type: 'rate_limit_error', message: expect.stringContaining('API key') },
      });
      // The same key's event streams share the cap.
      const { sId: cId } = await world.conversation(key, { title: 'Capped' });
      const events = await openSse(`${await patient.listen()}${paths.stream(wId, cId)}`, auth);
      expect(events.status).toBe(429);
      await events.body();

      // A slot frees once a stream closes.
      open.shift()!.close();
      await until(
        async () => {
          const again = await openSse(url, auth);
          if (again.status === 200) open.push(again);
          else await again.body();
          return again.status;
        },
        (status) => status === 200,
      );
    } finally {
      for (const stream of open) stream.close();
      await patient.close();
    }
  });

  it("closes a key's request streams on every process once it is revoked: no request reaches them", async () => {
    const patient = await patientApp();
    const open: SseConnection[] = [];
    try {
      const key = await world.key(a.admin);
      const other = await world.key(a.admin);
      const registered = await api(patient, key)
        .post(mcpPath(wId, 'register'))
        .send({ serverName: 'revoked-box' })
        .expect(200);
      const url = `${await patient.listen()}${mcpPath(wId, 'requests')}?serverId=${registered.body.serverId}`;
      const revokedStream = await openSse(url, { Authorization: `Bearer ${key.secret}` });
      const keptStream = await openSse(url, { Authorization: `Bearer ${other.secret}` });
      open.push(revokedStream, keptStream);
      expect([revokedStream.status, keptStream.status]).toEqual([200, 200]);
      let keptEnded = false;
      void keptStream.ended.then(() => (keptEnded = true));

      // Revoked through the other process: the notice reaches this one.
      await api(t, a.admin).delete(paths.key(wId, key.keyId)).expect(200);
      await endsWithin(revokedStream, 5_000);
      expect(revokedStream.events).toEqual([]);
      expect(await revokedStream.body()).not.toContain('data:');
      // Another key of the same member streams on.
      expect(keptEnded).toBe(false);
    } finally {
      for (const stream of open) stream.close();
      await patient.close();
    }
  });

  it("wakes a server's request streams for its requests only, not for the answers its client posts", async () => {
    const transport = await lend(a.admin, 'quiet-laptop');
    const patient = await patientApp();
    let watcher: SseConnection | undefined;
    try {
      const store = patient.app.get(ClientMcpStore);
      const reads = jest.spyOn(store, 'pendingAfter');
      const [server] = await store.findLive({ workspaceId: a.workspace.id, userId: a.admin.user.id }, [
        transport.serverId,
      ]);
      const readsOfServer = () => reads.mock.calls.filter(([serverId]) => serverId === server.id).length;
      // A second stream of the same server, on a process where it stays open: it sees every request.
      watcher = await openSse(
        `${await patient.listen()}${mcpPath(wId, 'requests')}?serverId=${transport.serverId}`,
        { Authorization: `Bearer ${a.admin.secret}` },
      );
      expect(watcher.status).toBe(200);
      await until(
        () => Promise.resolve(readsOfServer()),
        (count) => count >= 1,
      );
      const readsBefore = readsOfServer();

      const message = await ask(a.admin, '/tool quiet-laptop__count_files {"dir": "src"}', [
        transport.serverId,
      ]);
      expect(message.status).toBe('succeeded');
      // initialize, notifications/initialized, tools/list, tools/call; the client answered three of them.
      await watcher.waitForEvents(4);
      const methods = watcher.events.map((event) => (event.data.data as { method: string }).method);
      expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
      // Each read follows a queued request; the answers woke nothing.
      expect(readsOfServer() - readsBefore).toBeLessThanOrEqual(methods.length);
    } finally {
      watcher?.close();
      await patient.close();
    }
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, expectError } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

/** The events of the last this-many ms open a public-family conversation stream (kept short here). */
const HISTORY_MS = 1_500;

const v1 = (path: string) => path.replace(/^\/api\/w\//, '/api/v1/w/');

/** The public family `/api/v1/w/{wId}/…`: the `/api/w/` twins' rules, Dust's streams and routes. */
describe('the public family', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let wId: string;
  let baseUrl: string;
  let assistant: string;
  let mcp: McpTestServer;

  const auth = (secret: string) => ({ Authorization: `Bearer ${secret}` });
  const conversationStream = (cId: string) => `${baseUrl}${v1(paths.events(wId, cId))}`;
  const messageStream = (cId: string, mId: string) => `${baseUrl}${v1(paths.message(wId, cId, mId))}/events`;
  const cancelPath = (cId: string) => `${v1(paths.conversation(wId, cId))}/cancel`;

  beforeAll(async () => {
    t = await createTestApp({ env: { SSE_V1_HISTORY_MS: HISTORY_MS, SSE_POLL_MS: 60_000 } });
    baseUrl = await t.listen();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    assistant = (await world.globalAgents(a)).assistant;
    mcp = await startMcpTestServer();
  });
  afterAll(async () => {
    await mcp?.stop();
    await t?.close();
  });

  it('serves the routes of both families with the same answers, and another workspace as 404', async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Twins', message: 'Hi' });
    const internal = await api(t, a.admin).get(paths.messages(wId, cId)).expect(200);
    const external = await api(t, a.admin)
      .get(v1(paths.messages(wId, cId)))
      .expect(200);
    expect(external.body).toEqual(internal.body);
    expect(external.body).toMatchApiSchema('MessagesResponse');
    // B's key on A's conversation, and A's conversation under B's workspace: neither tells it exists.
    expectError(await api(t, b.admin).get(v1(paths.conversation(wId, cId))), 401, 'workspace_auth_error');
    const foreign = await api(t, b.admin).get(v1(paths.conversation(b.workspace.sId, cId)));
    expectError(foreign, 404, 'conversation_not_found');
  });

  it('gives a conversation its content on the public family only', async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Content', message: 'First' });
    const internal = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
    expect(internal.body.conversation.content).toBeUndefined();
    const external = await api(t, a.admin)
      .get(v1(paths.conversation(wId, cId)))
      .expect(200);
    expect(external.body).toMatchApiSchema('PublicConversationResponse');
    expect(external.body.conversation.content).toEqual([
      [expect.objectContaining({ type: 'user_message', content: 'First' })],
    ]);
  });

  it('answers a creation once the agent messages answering its message exist', async () => {
    const res = await api(t, a.admin)
      .post(v1(paths.conversations(wId)))
      .send({
        message: {
          content: 'Hello',
          mentions: [{ configurationId: assistant }],
          context: { username: 'ada', timezone: 'UTC' },
        },
        visibility: 'unlisted',
        blocking: false,
        skipToolsValidation: false,
      })
      .expect(200);
    expect(res.body).toMatchApiSchema('PublicCreatedConversationResponse');
    const content = res.body.conversation.content as { type: string; parentMessageId?: string }[][];
    expect(content.map(([slot]) => slot.type)).toEqual(['user_message', 'agent_message']);
    expect(content[1][0].parentMessageId).toBe(res.body.message.sId);
    // A post answers once its answers exist too: the conversation read next shows them.
    const cId = res.body.conversation.sId as string;
    const posted = await api(t, a.admin)
      .post(v1(paths.messages(wId, cId)))
      .send({
        content: 'Again',
        mentions: [{ configurationId: assistant }],
        context: { username: 'ada', timezone: 'UTC' },
      })
      .expect(200);
    const read = await api(t, a.admin)
      .get(v1(paths.conversation(wId, cId)))
      .expect(200);
    const slots = (read.body.conversation.content as { type: string; parentMessageId?: string }[][]).map(
      ([slot]) => slot,
    );
    expect(slots.filter((slot) => slot.parentMessageId === posted.body.message.sId)).toEqual([
      expect.objectContaining({ type: 'agent_message' }),
    ]);
    // Waiting for the answers is the public family's: the specification's refuses it, not ignores it.
    const blocking = await api(t, a.admin)
      .post(paths.conversations(wId))
      .send({ title: 'Blocking', blocking: true });
    expectError(blocking, 400, 'invalid_request_error');
  });

  it("frames a conversation's events as Dust does, starting with the recent history", async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'History', message: 'Too old' });
    // The history window is reckoned by the database's clock, which a test cannot move: real time passes.
    await sleep(HISTORY_MS + 300);
    const recent = await world.message(a.admin, cId, 'Recent');
    const stream = await openSse(conversationStream(cId), auth(a.admin.secret));
    try {
      expect(stream.status).toBe(200);
      const live = await world.message(a.admin, cId, 'Live');
      const events = await stream.waitForEvents(2);
      // The older message is out of the window: the stream starts at the recent one, then goes live.
      expect(events.map((event) => event.data)).toEqual([
        {
          eventId: events[0].id,
          data: expect.objectContaining({ type: 'user_message_new', messageId: recent.sId }),
        },
        {
          eventId: events[1].id,
          data: expect.objectContaining({ type: 'user_message_new', messageId: live.sId }),
        },
      ]);
      expect(events[0].data.data).toMatchApiSchema('UserMessageNewEvent');
      // With a cursor, exactly what follows it.
      const resumed = await openSse(`${conversationStream(cId)}?lastEventId=0`, auth(a.admin.secret));
      try {
        await resumed.waitForEvents(3);
        const messages = resumed.events
          .map((event) => event.data.data as { type: string; messageId: string })
          .filter((event) => event.type === 'user_message_new')
          .map((event) => event.messageId);
        expect(messages.slice(1)).toEqual([recent.sId, live.sId]);
      } finally {
        resumed.close();
      }
    } finally {
      stream.close();
    }
  });

  it("ends an agent message's stream after its outcome, and at once when resumed past it", async () => {
    const { sId: cId } = await world.conversation(a.admin, { message: 'Answer me', mentions: [assistant] });
    const [, answer] = await world.settled(a.admin, cId);
    const stream = await openSse(messageStream(cId, answer.sId), auth(a.admin.secret));
    await stream.ended;
    const types = stream.events.map((event) => (event.data.data as { type: string }).type);
    expect(types[0]).toBe('generation_tokens');
    expect(types[types.length - 1]).toBe('agent_message_success');
    for (const event of stream.events) expect(event.data.eventId).toBe(event.id);

    const last = stream.events[stream.events.length - 1].id;
    const after = await openSse(
      `${messageStream(cId, answer.sId)}?lastEventId=${last}`,
      auth(a.admin.secret),
    );
    await after.ended;
    expect({ status: after.status, events: after.events }).toEqual({ status: 200, events: [] });

    const before = stream.events[stream.events.length - 2].id;
    const tail = await openSse(messageStream(cId, answer.sId), {
      ...auth(a.admin.secret),
      'Last-Event-ID': before,
    });
    await tail.ended;
    expect(tail.events.map((event) => event.id)).toEqual([last]);
  });

  it("cancels with Dust's body, checking every id before cancelling any", async () => {
    const agent = await slowAgent();
    const { sId: cId } = await world.conversation(a.admin, {
      message: '/tool crm__slow {"ms": 20000}',
      mentions: [agent],
    });
    const running = await until(
      async () => (await world.messages(a.admin, cId)).find((m) => m.type === 'agent_message'),
      (found) => found !== undefined,
    );
    const [user] = await world.messages(a.admin, cId);
    for (const [messageIds, status, type] of [
      [[running!.sId, 'Unknown0Id'], 404, 'message_not_found'],
      [[running!.sId, user.sId], 400, 'invalid_request_error'],
      [[], 400, 'invalid_request_error'],
      ['nope', 400, 'invalid_request_error'],
    ] as const) {
      expectError(await api(t, a.admin).post(cancelPath(cId)).send({ messageIds }), status, type);
    }
    expect((await world.messages(a.admin, cId)).find((m) => m.sId === running!.sId)?.status).toBe('created');
    // Another workspace's key, or this conversation under another workspace: nothing is cancelled.
    const foreign = await api(t, b.admin)
      .post(`${v1(paths.conversation(b.workspace.sId, cId))}/cancel`)
      .send({ messageIds: [running!.sId] });
    expectError(foreign, 404, 'conversation_not_found');

    const res = await api(t, a.admin)
      .post(cancelPath(cId))
      .send({ messageIds: [running!.sId] })
      .expect(200);
    expect(res.body).toEqual({ success: true });
    await until(
      async () => (await world.messages(a.admin, cId)).find((m) => m.sId === running!.sId)?.status,
      (status) => status === 'cancelled',
    );
  });

  let slowAgentSId: string | undefined;
  async function slowAgent(): Promise<string> {
    if (slowAgentSId) return slowAgentSId;
    const space = await world.globalSpace(a.admin);
    const server = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'crm', url: mcp.url, description: 'Test tools' })
      .expect(200);
    await api(t, a.admin)
      .post(paths.toolServerViews(wId, space))
      .send({ mcpServerId: server.body.mcpServer.sId, requireApproval: ['delete_record'] })
      .expect(200);
    const agent = await world.agent(a.admin, {
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'crm', mcpServerName: 'crm' }],
    });
    slowAgentSId = agent.sId;
    return agent.sId;
  }

  it("lists a space's MCP server views to those who can access the space", async () => {
    await slowAgent();
    const global = await world.globalSpace(a.admin);
    const member = await world.member(a.workspace, 'user');
    const res = await api(t, member)
      .get(v1(`${paths.toolServerViews(wId, global)}`))
      .expect(200);
    expect(res.body).toMatchApiSchema('ServerViewsResponse');
    expect(res.body).toEqual({
      success: true,
      serverViews: [
        expect.objectContaining({
          spaceId: global,
          serverType: 'remote',
          requireApproval: ['delete_record'],
          server: expect.objectContaining({ name: 'crm' }),
        }),
      ],
    });
    const toolNames = (res.body.serverViews[0].server.tools as { name: string }[]).map((tool) => tool.name);
    expect(toolNames).toContain('delete_record');
    // The same list on the other family.
    const twin = await api(t, member).get(paths.toolServerViews(wId, global)).expect(200);
    expect(twin.body).toEqual(res.body);

    // A restricted space the member is not in, and a space of another workspace: 404.
    const vault = await world.space(a.admin, { members: [a.admin] });
    expectError(await api(t, member).get(v1(paths.toolServerViews(wId, vault.sId))), 404, 'space_not_found');
    const foreignSpace = await world.globalSpace(b.admin);
    expectError(
      await api(t, a.admin).get(v1(paths.toolServerViews(wId, foreignSpace))),
      404,
      'space_not_found',
    );
    const empty = await api(t, a.admin)
      .get(v1(paths.toolServerViews(wId, vault.sId)))
      .expect(200);
    expect(empty.body).toEqual({ success: true, serverViews: [] });
  });

  it('lists each route of both families as an operation of its own in the OpenAPI document', () => {
    const operations = Object.entries(t.document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { operationId?: string }>).map(([method, op]) => ({
        name: `${method.toUpperCase()} ${path}`,
        operationId: op.operationId,
      })),
    );
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const byName = new Map(operations.map((op) => [op.name, op.operationId]));
    expect(byName.get('GET /api/w/{wId}/assistant/conversations/{cId}')).toBe('ConversationsController_get');
    expect(byName.get('GET /api/v1/w/{wId}/assistant/conversations/{cId}')).toBe(
      'ConversationsController_get_v1',
    );
    for (const route of [
      'GET /api/v1/w/{wId}/assistant/agent_configurations',
      'POST /api/v1/w/{wId}/assistant/conversations/{cId}/content_fragments',
      'GET /api/v1/w/{wId}/assistant/conversations/{cId}/messages/{mId}/events',
      'POST /api/v1/w/{wId}/assistant/conversations/{cId}/cancel',
      'POST /api/v1/w/{wId}/files',
      'GET /api/v1/w/{wId}/spaces',
      'GET /api/v1/w/{wId}/spaces/{spaceId}/mcp_server_views',
    ])
      expect(byName.has(route)).toBe(true);
  });
});

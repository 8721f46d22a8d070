import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { openSse, SseMessage } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, ListedMessage, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

interface Action {
  sId: string;
  functionCallName: string;
  mcpServerName: string;
  toolName: string;
  params: Record<string, unknown>;
  status: string;
  output: { type: string; text: string }[] | null;
  step: number;
  executionDurationMs: number | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

const TERMINAL = ['agent_message_success', 'agent_error', 'agent_generation_cancelled'];

describe('agents calling tools', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let mcp: McpTestServer;
  const openai = new FakeOpenAi();
  /** Agents by what their toolset holds. */
  const agents: Record<string, string> = {};
  let globalSpace: string;

  const toolsPath = (wId: string) => paths.toolServers(wId);
  const messageEvents = (cId: string, mId: string) => `${paths.message(wId, cId, mId)}/events`;
  const validatePath = (cId: string, mId: string) => `${paths.message(wId, cId, mId)}/validate-action`;
  const blockedPath = (cId: string) => `${paths.conversation(wId, cId)}/actions/blocked`;

  /** Registers the test MCP server under `name`, shared to the global space with `requireApproval`. */
  async function register(
    admin: KeyHolder,
    space: string,
    name: string,
    requireApproval?: unknown,
    url = mcp.url,
  ): Promise<{ sId: string; viewSId: string }> {
    const res = await api(t, admin)
      .post(toolsPath(admin.workspace.sId))
      .send({ name, url, description: 'Test tools' })
      .expect(200);
    const server = res.body.mcpServer as { sId: string };
    const view = await api(t, admin)
      .post(paths.toolServerViews(admin.workspace.sId, space))
      .send({ mcpServerId: server.sId, ...(requireApproval !== undefined && { requireApproval }) })
      .expect(200);
    return { sId: server.sId, viewSId: view.body.mcpServerView.sId as string };
  }

  async function toolAgent(servers: string[], providerId = 'local'): Promise<string> {
    const agent = await world.agent(a.admin, {
      instructions: 'Use your tools.',
      model: { providerId, modelId: providerId === 'local' ? 'local-1' : 'gpt-test', temperature: 0 },
      actions: servers.map((server) => ({ name: server, mcpServerName: server })),
    });
    return agent.sId;
  }

  /** Posts `content` to a new conversation mentioning `agent`; answers the conversation and agent message ids. */
  async function ask(agent: string, content: string, actor: KeyHolder = a.admin) {
    const built = await world.conversation(actor, { message: content, mentions: [agent] });
    const agentMessage = await until(
      async () => (await world.messages(actor, built.sId)).find((m) => m.type === 'agent_message'),
      (found) => found !== undefined,
    );
    return { cId: built.sId, mId: agentMessage!.sId };
  }

  async function settled(actor: KeyHolder, cId: string): Promise<AgentMessage> {
    const list = await world.settled(actor, cId);
    return list.find((m) => m.type === 'agent_message') as AgentMessage;
  }

  async function waitForStatus(actor: KeyHolder, cId: string, status: string): Promise<Action> {
    const message = await until(
      async () => (await world.messages(actor, cId)).find((m) => m.type === 'agent_message') as AgentMessage,
      (found) => found?.actions?.some((action) => action.status === status) === true,
    );
    return message.actions.find((action) => action.status === status)!;
  }

  /** A message's events from the start (or after `lastEventId`) until it ends. */
  async function readMessageStream(cId: string, mId: string, lastEventId?: string): Promise<SseMessage[]> {
    const query = lastEventId === undefined ? '' : `?lastEventId=${lastEventId}`;
    const stream = await openSse(`${await t.listen()}${messageEvents(cId, mId)}${query}`, {
      Authorization: `Bearer ${a.admin.secret}`,
    });
    try {
      expect(stream.status).toBe(200);
      await until(
        async () => stream.events.map((event) => event.data.type as string),
        (types) => types.some((type) => TERMINAL.includes(type)),
      );
      return stream.events;
    } finally {
      stream.close();
    }
  }

  beforeAll(async () => {
    mcp = await startMcpTestServer();
    const openaiUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
        TOOL_CALL_TIMEOUT_MS: 1_500,
        TOOL_APPROVAL_TIMEOUT_MS: 60_000,
        TOOL_APPROVAL_POLL_MS: 100,
        TOOL_MAX_CALLS_PER_STEP: 3,
      },
    });
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    globalSpace = await world.globalSpace(a.admin);
    await register(a.admin, globalSpace, 'crm');
    await register(a.admin, globalSpace, 'vault', ['delete_record']);
    agents.crm = await toolAgent(['crm']);
    agents.vault = await toolAgent(['vault']);
    agents.gpt = await toolAgent(['crm'], 'openai');
  });
  afterAll(async () => {
    await t.close();
    await openai.stop();
    await mcp.stop();
  });

  it('calls a tool of a remote server with the local model, and answers with its output', async () => {
    const { cId, mId } = await ask(agents.crm, '/tool crm__add {"a": 2, "b": 40}');
    const message = await settled(a.admin, cId);
    expect(message).toMatchObject({ status: 'succeeded', content: 'crm__add answered: 42' });
    expect(message.actions).toEqual([
      expect.objectContaining({
        functionCallName: 'crm__add',
        mcpServerName: 'crm',
        toolName: 'add',
        params: { a: 2, b: 40 },
        status: 'succeeded',
        output: [{ type: 'text', text: '42' }],
        step: 0,
        executionDurationMs: expect.any(Number),
      }),
    ]);
    expect(mcp.calls).toContainEqual({ name: 'add', args: { a: 2, b: 40 } });

    const events = await readMessageStream(cId, mId);
    const types = events.map((event) => event.data.type);
    expect(types[0]).toBe('tool_params');
    expect(types).toContain('agent_action_success');
    expect(types).toContain('generation_tokens');
    expect(types[types.length - 1]).toBe('agent_message_success');
    for (const event of events) expect(event.data.messageId).toBe(mId);
    const success = events.find((event) => event.data.type === 'agent_message_success')!;
    expect(success.data).toMatchApiSchema('AgentMessageSuccessEvent');
    expect((success.data.message as AgentMessage).actions[0].status).toBe('succeeded');
    for (const type of ['tool_params', 'agent_action_success']) {
      const event = events.find((candidate) => candidate.data.type === type)!;
      expect(event.data).toMatchApiSchema(
        type === 'tool_params' ? 'ToolParamsEvent' : 'AgentActionSuccessEvent',
      );
      expect(event.data.action).toMatchObject({ type: 'tool_action', agentMessageId: message.id });
    }

    // The conversation stream keeps the specification's seven types.
    const conversationTypes = (await eventsOf(t, a.admin, cId)).map((event) => event.type);
    expect(conversationTypes).not.toContain('tool_params');
    expect(conversationTypes).toContain('agent_message_done');
  });

  it('resumes the per-message stream right after the event it names', async () => {
    const { cId, mId } = await ask(agents.crm, '/tool crm__echo {"text": "resume me"}');
    await settled(a.admin, cId);
    const all = await readMessageStream(cId, mId);
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (let cut = 0; cut < all.length - 1; cut++) {
      const rest = await readMessageStream(cId, mId, all[cut].id);
      expect(rest.map((event) => event.id)).toEqual(all.slice(cut + 1).map((event) => event.id));
    }
  });

  it("keeps a message's stream and blocked calls to the conversation's readers", async () => {
    const { cId, mId } = await ask(agents.crm, '/tool crm__echo {"text": "mine"}');
    const list = await settled(a.admin, cId);
    const user = (await world.messages(a.admin, cId)).find((m) => m.type === 'user_message')!;
    const open = async (path: string, actor: KeyHolder) => {
      const stream = await openSse(`${await t.listen()}${path}`, { Authorization: `Bearer ${actor.secret}` });
      const body = stream.status === 200 ? null : (JSON.parse(await stream.body()) as unknown);
      stream.close();
      return { status: stream.status, body };
    };
    expect(await open(messageEvents(cId, user.sId), a.admin)).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_request_error' } },
    });
    expect(await open(messageEvents(cId, 'unknownmsg01'), a.admin)).toMatchObject({ status: 404 });
    const b = await world.workspace();
    const foreign = `/api/w/${b.workspace.sId}/assistant/conversations/${cId}/messages/${mId}/events`;
    expect(await open(foreign, b.admin)).toMatchObject({
      status: 404,
      body: { error: { type: 'conversation_not_found' } },
    });
    expectError(
      await api(t, b.admin).get(`/api/w/${b.workspace.sId}/assistant/conversations/${cId}/actions/blocked`),
      404,
      'conversation_not_found',
    );
    const writer = await world.key(a.admin, ['write:conversation']);
    expect((await api(t, writer).get(blockedPath(cId))).status).toBe(403);
    expect(list.actions).toHaveLength(1);
  });

  it('runs two steps with parallel calls through an OpenAI-compatible model', async () => {
    openai.script(
      {
        kind: 'tool_calls',
        text: 'Let me check.',
        calls: [
          { id: 'call_a', name: 'crm__add', arguments: '{"a": 1, "b": 2}' },
          { id: 'call_b', name: 'crm__echo', arguments: '{"text": "hi"}' },
        ],
      },
      { kind: 'stream', chunks: ['The sum is 3', ' and the echo is hi.'] },
    );
    const before = openai.requests.length;
    const { cId } = await ask(agents.gpt, 'Add and echo');
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('succeeded');
    expect(message.content).toBe('Let me check.The sum is 3 and the echo is hi.');
    expect(message.actions.map((action) => [action.functionCallName, action.status, action.output])).toEqual([
      ['crm__add', 'succeeded', [{ type: 'text', text: '3' }]],
      ['crm__echo', 'succeeded', [{ type: 'text', text: 'hi' }]],
    ]);
    const [first, second] = openai.requests.slice(before);
    const tools = first.body.tools as { type: string; function: { name: string; parameters: unknown } }[];
    expect(tools.map((tool) => tool.function.name).sort()).toEqual(
      ['crm__add', 'crm__delete_record', 'crm__echo', 'crm__fail', 'crm__slow'].sort(),
    );
    expect(tools[0].type).toBe('function');
    const messages = second.body.messages as Record<string, unknown>[];
    expect(messages.slice(-3)).toEqual([
      expect.objectContaining({ role: 'assistant', tool_calls: expect.any(Array) }),
      { role: 'tool', tool_call_id: 'call_a', content: '3' },
      { role: 'tool', tool_call_id: 'call_b', content: 'hi' },
    ]);
  });

  it('fails a call that errors or times out, tells the model why, and goes on', async () => {
    const { cId } = await ask(agents.crm, '/tool crm__fail {}\n/tool crm__slow {"ms": 10000}');
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('succeeded');
    const [failed, slow] = message.actions;
    expect(failed).toMatchObject({ toolName: 'fail', status: 'failed' });
    expect(failed.output![0].text).toContain('The tool failed on purpose.');
    expect(slow).toMatchObject({ toolName: 'slow', status: 'failed' });
    expect(slow.output![0].text).toBe('The tool did not answer within 1500 ms.');
    expect(message.content).toContain('crm__slow answered: The tool did not answer within 1500 ms.');
  });

  it('refuses the calls of a step beyond the limit, and arguments that are not an object', async () => {
    const { cId } = await ask(
      agents.crm,
      [
        '/tool crm__echo {"text": "1"}',
        '/tool crm__add [1, 2]',
        '/tool crm__echo {"text": "3"}',
        '/tool crm__echo {"text": "4"}',
      ].join('\n'),
    );
    const message = await settled(a.admin, cId);
    expect(message.actions.map((action) => action.status)).toEqual([
      'succeeded',
      'failed',
      'succeeded',
      'failed',
    ]);
    expect(message.actions[1].output![0].text).toBe('The arguments are not a JSON object.');
    expect(message.actions[3].output![0].text).toBe('Not run: at most 3 tool calls are allowed in one step.');
  });

  it('aborts the tool call in flight when the message is cancelled', async () => {
    const { cId, mId } = await ask(agents.crm, '/tool crm__slow {"ms": 1200}');
    await waitForStatus(a.admin, cId, 'running');
    await until(
      async () => mcp.calls.filter((call) => call.name === 'slow' && call.args.ms === 1200).length,
      (n) => n === 1,
    );
    await api(t, a.admin)
      .post(`${paths.message(wId, cId, mId)}/cancel`)
      .expect(200);
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('cancelled');
    await until(
      async () => mcp.calls.find((call) => call.name === 'slow' && call.args.ms === 1200)?.aborted,
      (aborted) => aborted === true,
    );
    const action = (await settled(a.admin, cId)).actions[0];
    expect(action.status).toBe('failed');
  });

  it('lists which internal servers this service offers, and why the others are not', async () => {
    const res = await api(t, a.admin).get(toolsPath(wId)).expect(200);
    expect(res.body).toMatchApiSchema('McpServersResponse');
    const internal = res.body.internal as {
      name: string;
      available: boolean;
      unavailableReason: string | null;
    }[];
    expect(internal.find((server) => server.name === 'wake_ups')).toMatchObject({
      available: true,
      unavailableReason: null,
    });
    expect(internal.find((server) => server.name === 'query_tables')).toMatchObject({
      available: false,
      unavailableReason: expect.stringContaining('(not_configured)'),
    });
  });

  it('calls an internal server in process: the wake_ups tools schedule a wake-up of the conversation', async () => {
    const scheduler = (
      await world.agent(a.admin, {
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'wake_ups', mcpServerName: 'wake_ups' }],
      })
    ).sId;
    const { cId } = await ask(
      scheduler,
      '/tool wake_ups__schedule_wake_up {"delayMinutes": 30, "message": "Check the build"}',
    );
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('succeeded');
    expect(message.actions[0]).toMatchObject({
      mcpServerName: 'wake_ups',
      toolName: 'schedule_wake_up',
      status: 'succeeded',
    });
    const wakeUps = await api(t, a.admin).get(paths.wakeUps(wId, cId)).expect(200);
    expect(wakeUps.body.wakeUps).toEqual([
      expect.objectContaining({ agentConfigurationId: scheduler, status: 'scheduled' }),
    ]);
  });

  it('asks another agent through run_agent, which uses its own tools, and answers with its answer', async () => {
    const asker = (
      await world.agent(a.admin, {
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'run_agent', mcpServerName: 'run_agent' }],
      })
    ).sId;
    const query = JSON.stringify({ agentId: agents.crm, query: '/tool crm__add {"a": 20, "b": 22}' });
    const { cId } = await ask(asker, `/tool run_agent__run_agent ${query}`);
    const message = await settled(a.admin, cId);
    expect(message).toMatchObject({
      status: 'succeeded',
      content: 'run_agent__run_agent answered: crm__add answered: 42',
    });
    expect(message.actions).toEqual([
      expect.objectContaining({ mcpServerName: 'run_agent', toolName: 'run_agent', status: 'succeeded' }),
    ]);
  });

  it('offers nothing of a server unshared after the agent was saved, and says why on the message', async () => {
    const space = await world.space(a.admin, { members: [a.admin] });
    const server = await register(a.admin, space.sId, 'ledger');
    const ledgerAgent = await toolAgent(['ledger']);
    await api(t, a.admin)
      .delete(`${paths.toolServerViews(wId, space.sId)}/${server.viewSId}`)
      .expect(200);
    const { cId } = await ask(ledgerAgent, '/tool ledger__echo {"text": "x"}');
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('succeeded');
    expect(message.content).toBe('I have no tool named ledger__echo. The tools I can call: none.');
    expect(message.actions).toEqual([
      expect.objectContaining({ mcpServerName: 'ledger', status: 'failed', step: -1 }),
    ]);
    expect(message.actions[0].output![0].text).toMatch(/^Not offered to this run: .*ledger/);
    expect(mcp.calls.some((call) => call.args.text === 'x')).toBe(false);
  });

  it('offers nothing of a server that could not be reached when it was registered', async () => {
    const closed = await startMcpTestServer();
    const url = closed.url;
    await closed.stop();
    const res = await api(t, a.admin)
      .post(toolsPath(wId))
      .send({ name: 'offline', url, description: 'Down' })
      .expect(200);
    expect(res.body.mcpServer.lastSyncError).toEqual(expect.any(String));
    await api(t, a.admin)
      .post(paths.toolServerViews(wId, globalSpace))
      .send({ mcpServerId: res.body.mcpServer.sId })
      .expect(200);
    const offline = await toolAgent(['offline']);
    const { cId } = await ask(offline, 'Hello');
    const message = await settled(a.admin, cId);
    expect(message.status).toBe('succeeded');
    expect(message.actions).toEqual([
      expect.objectContaining({ mcpServerName: 'offline', status: 'failed', step: -1 }),
    ]);
  });

  describe('approval', () => {
    it('waits for approval, shows actionRequired, then runs the approved call', async () => {
      const { cId, mId } = await ask(agents.vault, '/tool vault__delete_record {"id": "rec_1"}');
      const action = await waitForStatus(a.admin, cId, 'blocked_validation_required');
      const blocked = await api(t, a.admin).get(blockedPath(cId)).expect(200);
      expect(blocked.body).toMatchApiSchema('BlockedActionsResponse');
      expect(blocked.body.blockedActions).toEqual([
        expect.objectContaining({
          actionId: action.sId,
          messageId: mId,
          conversationId: cId,
          inputs: { id: 'rec_1' },
          metadata: expect.objectContaining({ toolName: 'delete_record', mcpServerName: 'vault' }),
        }),
      ]);
      const conversation = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
      expect(conversation.body.conversation.actionRequired).toBe(true);
      expect(mcp.calls.some((call) => call.args.id === 'rec_1')).toBe(false);

      const answered = await api(t, a.admin)
        .post(validatePath(cId, mId))
        .send({ actionId: action.sId, approved: 'approved' })
        .expect(200);
      expect(answered.body).toMatchApiSchema('ValidateActionResponse');
      const message = await settled(a.admin, cId);
      expect(message).toMatchObject({
        status: 'succeeded',
        content: 'vault__delete_record answered: deleted rec_1',
      });
      expect(message.actions[0].status).toBe('succeeded');
      expect(mcp.calls).toContainEqual({ name: 'delete_record', args: { id: 'rec_1' } });
      const after = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
      expect(after.body.conversation.actionRequired).toBe(false);
      expect((await api(t, a.admin).get(blockedPath(cId)).expect(200)).body.blockedActions).toEqual([]);
      const types = (await readMessageStream(cId, mId)).map((event) => event.data.type);
      expect(types.slice(0, 3)).toEqual(['tool_params', 'tool_approve_execution', 'agent_action_success']);

      // Answered once: a second answer is a conflict.
      const again = await api(t, a.admin)
        .post(validatePath(cId, mId))
        .send({ actionId: action.sId, approved: 'rejected' });
      expectError(again, 409, 'conflict');
    });

    it("shows a message's tool calls live on its stream while it runs", async () => {
      const { cId, mId } = await ask(agents.vault, '/tool vault__delete_record {"id": "rec_live"}');
      const action = await waitForStatus(a.admin, cId, 'blocked_validation_required');
      const stream = await openSse(`${await t.listen()}${messageEvents(cId, mId)}`, {
        Authorization: `Bearer ${a.admin.secret}`,
      });
      try {
        await until(
          async () => stream.events.map((event) => event.data.type),
          (types) => types.includes('tool_approve_execution'),
        );
        expect(stream.events.map((event) => event.data.type)).not.toContain('agent_action_success');
        await api(t, a.admin)
          .post(validatePath(cId, mId))
          .send({ actionId: action.sId, approved: 'approved' })
          .expect(200);
        await until(
          async () => stream.events.map((event) => event.data.type),
          (types) => types.includes('agent_message_success'),
        );
        const types = stream.events.map((event) => event.data.type);
        expect(types.indexOf('agent_action_success')).toBeGreaterThan(
          types.indexOf('tool_approve_execution'),
        );
      } finally {
        stream.close();
      }
    });

    it('tells the model the user declined a rejected call, which never runs', async () => {
      const { cId, mId } = await ask(agents.vault, '/tool vault__delete_record {"id": "rec_2"}');
      const action = await waitForStatus(a.admin, cId, 'blocked_validation_required');
      await api(t, a.admin)
        .post(validatePath(cId, mId))
        .send({ actionId: action.sId, approved: 'rejected' })
        .expect(200);
      const message = await settled(a.admin, cId);
      expect(message.status).toBe('succeeded');
      expect(message.actions[0].status).toBe('denied');
      expect(message.content).toContain('The user declined to run this tool.');
      expect(mcp.calls.some((call) => call.args.id === 'rec_2')).toBe(false);
    });

    it('declines a waiting call when its message is cancelled, and nobody has to act any more', async () => {
      const { cId, mId } = await ask(agents.vault, '/tool vault__delete_record {"id": "rec_cancel"}');
      await waitForStatus(a.admin, cId, 'blocked_validation_required');
      await api(t, a.admin)
        .post(`${paths.message(wId, cId, mId)}/cancel`)
        .expect(200);
      const message = await settled(a.admin, cId);
      expect(message.status).toBe('cancelled');
      expect(message.actions[0]).toMatchObject({
        status: 'denied',
        output: [{ type: 'text', text: 'The message was cancelled before anyone answered.' }],
      });
      const conversation = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
      expect(conversation.body.conversation.actionRequired).toBe(false);
      expect((await api(t, a.admin).get(blockedPath(cId)).expect(200)).body.blockedActions).toEqual([]);
      expect(mcp.calls.some((call) => call.args.id === 'rec_cancel')).toBe(false);
    });

    it('checks who answers and what they send', async () => {
      const { cId, mId } = await ask(agents.vault, '/tool vault__delete_record {"id": "rec_3"}');
      const action = await waitForStatus(a.admin, cId, 'blocked_validation_required');
      for (const body of [
        {},
        { actionId: action.sId },
        { actionId: action.sId, approved: true },
        { actionId: action.sId, approved: 'maybe' },
        { actionId: action.sId, approved: 'approved', extra: 1 },
        { actionId: 'x'.repeat(100), approved: 'approved' },
      ]) {
        expectError(
          await api(t, a.admin).post(validatePath(cId, mId)).send(body),
          400,
          'invalid_request_error',
        );
      }
      expectError(
        await api(t, a.admin)
          .post(validatePath(cId, mId))
          .send({ actionId: 'act_unknown0001', approved: 'approved' }),
        404,
        'not_found',
      );
      const b = await world.workspace();
      expectError(
        await api(t, b.admin)
          .post(`/api/w/${b.workspace.sId}/assistant/conversations/${cId}/messages/${mId}/validate-action`)
          .send({ actionId: action.sId, approved: 'approved' }),
        404,
        'conversation_not_found',
      );
      const reader = await world.key(a.admin, ['read:conversation']);
      const noScope = await api(t, reader)
        .post(validatePath(cId, mId))
        .send({ actionId: action.sId, approved: 'approved' });
      expect(noScope.status).toBe(403);
      expect(mcp.calls.some((call) => call.args.id === 'rec_3')).toBe(false);
      await api(t, a.admin)
        .post(validatePath(cId, mId))
        .send({ actionId: action.sId, approved: 'rejected' })
        .expect(200);
      await settled(a.admin, cId);
    });

    it('refuses an answer from a member who is not the one the agent acts for', async () => {
      const conversation = await world.conversation(member, {});
      await api(t, member)
        .post(paths.messages(wId, conversation.sId))
        .send({
          content: '/tool vault__delete_record {"id": "rec_4"}',
          mentions: [{ configurationId: agents.vault }],
          context: { username: 'bo', timezone: 'UTC' },
        })
        .expect(200);
      const action = await waitForStatus(member, conversation.sId, 'blocked_validation_required');
      const agentMessage = (await world.messages(member, conversation.sId)).find(
        (m) => m.type === 'agent_message',
      )!;
      const other = await world.member(a.workspace, 'user');
      // Another member reads the conversation but the agent does not act for them.
      const res = await api(t, other)
        .post(validatePath(conversation.sId, agentMessage.sId))
        .send({ actionId: action.sId, approved: 'approved' });
      expectError(res, 403, 'workspace_auth_error');
      // An admin may answer for them.
      await api(t, a.admin)
        .post(validatePath(conversation.sId, agentMessage.sId))
        .send({ actionId: action.sId, approved: 'approved' })
        .expect(200);
      expect((await settled(member, conversation.sId)).actions[0].status).toBe('succeeded');
    });
  });
});

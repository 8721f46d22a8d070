import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DustAPI, type ConversationPublicType, type LoggerInterface } from '@dust-tt/client';
import { freePort } from 'src/platform/net/free-port';
import { localAnswer } from 'src/modules/runtime/domain/local-answer';
import { expect } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

type ModelSelection = NonNullable<
  NonNullable<Parameters<DustAPI['createConversation']>[0]['message']>['modelSelection']
>;

type Result<T> = { isOk(): boolean; isErr(): boolean; value?: T; error?: unknown };

/**
 * The schema paths a response failed the client's parsing on (`*` for any index), from the error
 * the client returns: `path: what zod said`.
 */
function schemaGaps(error: unknown): string[] {
  const message = (error as { message?: string } | undefined)?.message ?? '';
  const issues = message.indexOf(' : [');
  if (issues === -1) return [];
  const parsed = JSON.parse(message.slice(issues + 3)) as { path: (string | number)[]; message: string }[];
  const paths = parsed.map(
    (issue) =>
      `${issue.path.map((part) => (typeof part === 'number' ? '*' : part)).join('.')}: ${issue.message}`,
  );
  return [...new Set(paths)].sort();
}

/** The value of a result the client parsed, or a failure naming what the client said. */
function ok<T>(result: Result<T>): T {
  const error = result.isErr() ? result.error : undefined;
  expect({ ok: result.isOk(), error, gaps: schemaGaps(error) }).toEqual({
    ok: true,
    error: undefined,
    gaps: [],
  });
  return result.value as T;
}

/** What the client logs: its parse failures, kept so a failing test shows them. */
function recordingLogger(): LoggerInterface & { errors: unknown[] } {
  const errors: unknown[] = [];
  return {
    errors,
    error: (args, message) => errors.push({ message, ...args }),
    info: () => {},
    trace: () => {},
    warn: () => {},
  };
}

const context = { username: 'ada', timezone: 'UTC', fullName: 'Ada Lovelace', email: 'ada@example.com' };

/**
 * Dust's own client (`@dust-tt/client`), unchanged, against a listening app: every call it makes
 * goes to the public family `/api/v1/w/{wId}/…`, and its answers pass its own zod schemas.
 */
describe("Dust's client", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let wId: string;
  let dust: DustAPI;
  let logger: ReturnType<typeof recordingLogger>;
  let mcp: McpTestServer;
  let assistant: string;

  beforeAll(async () => {
    // The upload URL the service hands out must reach this server: its public base URL is known first.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        PUBLIC_BASE_URL: url,
        TOOL_APPROVAL_TIMEOUT_MS: 60_000,
        TOOL_APPROVAL_POLL_MS: 100,
      },
    });
    await t.app.listen(port, '127.0.0.1');
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    assistant = (await world.globalAgents(a)).assistant;
    mcp = await startMcpTestServer();
    logger = recordingLogger();
    dust = new DustAPI({ url }, { apiKey: a.admin.secret, workspaceId: wId }, logger);
  });
  afterAll(async () => {
    await mcp?.stop();
    await t?.close();
  });

  let toolAgentSId: string | undefined;
  /** The test MCP server's view in the global space, and that space. */
  let crm: { viewSId: string; serverSId: string; spaceSId: string } | undefined;
  /** An agent whose toolset is the test MCP server, `delete_record` waiting for approval. */
  async function toolAgent(): Promise<string> {
    if (toolAgentSId) return toolAgentSId;
    const space = await world.globalSpace(a.admin);
    const server = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'crm', url: mcp.url, description: 'Test tools' })
      .expect(200);
    const view = await api(t, a.admin)
      .post(paths.toolServerViews(wId, space))
      .send({ mcpServerId: server.body.mcpServer.sId, requireApproval: ['delete_record'] })
      .expect(200);
    crm = { viewSId: view.body.mcpServerView.sId, serverSId: server.body.mcpServer.sId, spaceSId: space };
    const agent = await world.agent(a.admin, {
      instructions: 'Use your tools.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'crm', mcpServerName: 'crm' }],
    });
    toolAgentSId = agent.sId;
    return agent.sId;
  }

  /** The sId of the agent message answering a creation's message, from the conversation's content. */
  function agentMessageOf(created: { conversation: ConversationPublicType; message: { sId: string } }) {
    const answer = created.conversation.content
      .map((versions) => versions[versions.length - 1])
      .find((m) => m.type === 'agent_message' && m.parentMessageId === created.message.sId);
    expect(answer).toBeDefined();
    return answer!.sId;
  }

  async function untilStatus(cId: string, mId: string, done: (status: string | undefined) => boolean) {
    await until(async () => (await world.messages(a.admin, cId)).find((m) => m.sId === mId)?.status, done);
  }

  /** A conversation created by the SDK's `createConversation`, its first message mentioning `mentions`. */
  async function createdBySdk(content: string, mentions: string[]) {
    const created = ok(
      await dust.createConversation({
        title: 'Through the SDK',
        visibility: 'unlisted',
        message: { content, mentions: mentions.map((configurationId) => ({ configurationId })), context },
        contentFragment: undefined,
        contentFragments: undefined,
        blocking: false,
        skipToolsValidation: false,
      }),
    );
    expect(created.message).toBeDefined();
    return created as { conversation: ConversationPublicType; message: { sId: string } };
  }

  async function eventsOfAnswer(conversation: ConversationPublicType, userMessageId: string) {
    const streamed = ok(await dust.streamAgentAnswerEvents({ conversation, userMessageId }));
    const events: { type: string; [key: string]: unknown }[] = [];
    for await (const event of streamed.eventStream) events.push(event);
    return events;
  }

  it('lists the agents, and reads the spaces', async () => {
    ok(await dust.getAgentConfigurations({}));
    ok(await dust.getSpaces());
  });

  it('creates a conversation mentioning an agent, streams the answer to the end, and reads it', async () => {
    ok(
      await dust.createConversation({
        title: 'Through the SDK',
        visibility: 'unlisted',
        message: { content: 'Hello there', mentions: [{ configurationId: assistant }], context },
        contentFragment: undefined,
        contentFragments: undefined,
        blocking: false,
        skipToolsValidation: false,
      }),
    );

    const created = await createdBySdk('What is the plan?', [assistant]);
    const events = await eventsOfAnswer(created.conversation, created.message.sId);
    const expected = localAnswer(
      'You are a helpful assistant. Answer the latest message using the conversation so far.',
      [{ role: 'user', content: 'What is the plan?' }],
    );
    const tokens = events.filter((event) => event.type === 'generation_tokens');
    expect(tokens.map((event) => event.text).join('')).toBe(expected);
    const last = events[events.length - 1] as { type: string; message: { content: string } };
    expect(last.type).toBe('agent_message_success');
    expect(last.message.content).toBe(expected);

    ok(await dust.getConversation({ conversationId: created.conversation.sId }));
    ok(await dust.getConversations());
  });

  it('retries an answer through the client transport, then streams the new version by its ids', async () => {
    const created = await createdBySdk('Retry me', [assistant]);
    const first = await eventsOfAnswer(created.conversation, created.message.sId);
    expect(first[first.length - 1].type).toBe('agent_message_success');
    const conversationId = created.conversation.sId;
    const answer = agentMessageOf(created);

    const res = await dust.request({
      method: 'POST',
      path: `assistant/conversations/${conversationId}/messages/${answer}/retry`,
    });
    expect(res.isOk() && res.value.response.status).toBe(200);
    const retried = JSON.parse(res.isOk() ? (res.value.response.body as string) : '{}');
    expect(retried).toMatchApiSchema('AgentMessageResponse');
    expect(retried.message).toMatchObject({
      type: 'agent_message',
      version: 1,
      parentMessageId: created.message.sId,
    });
    expect(retried.message.sId).not.toBe(answer);

    const conversation = ok(await dust.getConversation({ conversationId }));
    const slot = conversation.content.find(
      (versions) => versions[versions.length - 1].sId === retried.message.sId,
    );
    expect(slot).toBeDefined();
    const streamed = ok(
      await dust.streamAgentMessageEvents({
        conversationId,
        agentMessageId: slot![slot!.length - 1].sId,
        options: { maxReconnectAttempts: 3, reconnectDelay: 100, autoReconnect: true },
      }),
    );
    const events: { type: string; message?: { sId: string; content: string } }[] = [];
    for await (const event of streamed.eventStream) events.push(event as (typeof events)[number]);
    const last = events[events.length - 1];
    expect(last.type).toBe('agent_message_success');
    expect(last.message?.sId).toBe(retried.message.sId);
    expect(last.message?.content).toBe((first[first.length - 1].message as { content: string }).content);
  });

  it('puts text in a conversation, and uploads a file to the URL it is given', async () => {
    const created = await createdBySdk('Read these', []);
    const conversationId = created.conversation.sId;
    ok(
      await dust.postContentFragment({
        conversationId,
        contentFragment: { title: 'Notes', content: 'The plan is to ship.', contentType: 'text/plain' },
      }),
    );
    const fragments = created.conversation.content.length;
    const after = await dust.request({ method: 'GET', path: `assistant/conversations/${conversationId}` });
    const read = JSON.parse(after.isOk() ? (after.value.response.body as string) : '{}');
    expect(read.conversation.content).toHaveLength(fragments + 1);
    expect(read.conversation.content[fragments][0]).toMatchObject({
      type: 'content_fragment',
      title: 'Notes',
    });

    const text = 'Quarterly numbers: up.';
    const file = ok(
      await dust.uploadFile({
        contentType: 'text/plain',
        fileName: 'numbers.txt',
        fileSize: Buffer.byteLength(text),
        useCase: 'conversation',
        useCaseMetadata: { conversationId },
        fileObject: new File([text], 'numbers.txt', { type: 'text/plain' }),
      }),
    );
    expect(file).toMatchObject({
      status: 'ready',
      fileName: 'numbers.txt',
      fileSize: Buffer.byteLength(text),
    });
  });

  it('gives feedback on an answer and reads it back', async () => {
    const created = await createdBySdk('Rate me', [assistant]);
    const events = await eventsOfAnswer(created.conversation, created.message.sId);
    const answer = events[events.length - 1] as unknown as { messageId: string };
    const conversationId = created.conversation.sId;
    ok(
      await dust.postFeedback(conversationId, answer.messageId, {
        thumbDirection: 'up',
        feedbackContent: 'Clear',
      }),
    );
    const feedbacks = ok(await dust.getConversationFeedback({ conversationId }));
    expect(feedbacks).toEqual([expect.objectContaining({ thumbDirection: 'up', content: 'Clear' })]);
  });

  it('cancels a generation', async () => {
    const agent = await toolAgent();
    const created = await createdBySdk('/tool crm__slow {"ms": 20000}', [agent]);
    const answer = agentMessageOf(created);
    expect(
      ok(
        await dust.cancelMessageGeneration({
          conversationId: created.conversation.sId,
          messageIds: [answer],
        }),
      ),
    ).toEqual({ success: true });
    await untilStatus(created.conversation.sId, answer, (status) => status === 'cancelled');
  });

  it('approves a tool call that waits for approval', async () => {
    const agent = await toolAgent();
    const created = await createdBySdk('/tool crm__delete_record {"id": "rec_42"}', [agent]);
    const streamed = ok(
      await dust.streamAgentAnswerEvents({
        conversation: created.conversation,
        userMessageId: created.message.sId,
      }),
    );
    const seen: string[] = [];
    for await (const event of streamed.eventStream) {
      seen.push(event.type);
      if (event.type === 'tool_approve_execution') {
        const actionId = event.actionId;
        const validated = ok(
          await dust.validateAction({
            conversationId: created.conversation.sId,
            messageId: event.messageId,
            actionId,
            approved: 'approved',
          }),
        );
        expect(validated.success).toBe(true);
      }
    }
    expect(seen).toEqual(expect.arrayContaining(['tool_approve_execution', 'agent_action_success']));
    expect(seen[seen.length - 1]).toBe('agent_message_success');
    expect(mcp.calls.filter((call) => call.name === 'delete_record')).toEqual([
      expect.objectContaining({ args: { id: 'rec_42' } }),
    ]);
  });

  it('marks a conversation read, as markAsRead expects ({success})', async () => {
    const created = await createdBySdk('Read me later', []);
    expect(ok(await dust.markAsRead({ conversationId: created.conversation.sId }))).toBe(true);
    const conversation = ok(await dust.getConversation({ conversationId: created.conversation.sId }));
    expect(conversation.unread).toBe(false);
    expect(conversation.url).toBe(
      `${dust.apiUrl()}/api/w/${wId}/assistant/conversations/${conversation.sId}`,
    );
  });

  it("lists a space's tool server views with the fields 1.2.8 reads", async () => {
    await toolAgent();
    const views = ok(await dust.getMCPServerViews(crm!.spaceSId));
    const view = views.find((candidate) => candidate.sId === crm!.viewSId);
    expect(view).toMatchObject({
      id: expect.any(Number),
      updatedAt: expect.any(Number),
      serverType: 'remote',
      // The version the test server declares in its `serverInfo`, recorded when it was synchronised.
      server: { sId: crm!.serverSId, name: 'crm', allowMultipleInstances: true, version: '1.0.0' },
    });
  });

  it('describes a tool call with the fields of 1.2.8 actions, and lists a waiting call with its status', async () => {
    const agent = await toolAgent();
    const created = await createdBySdk('/tool crm__delete_record {"id": "rec_43"}', [agent]);
    const conversationId = created.conversation.sId;
    const answer = agentMessageOf(created);
    let blocked: Awaited<ReturnType<DustAPI['getBlockedActions']>> | undefined;
    await until(
      async () => (blocked = await dust.getBlockedActions({ conversationId })),
      (result) => result.isOk() && result.value.blockedActions.length > 0,
    );
    const [waiting] = ok(blocked!).blockedActions;
    expect(waiting).toMatchObject({
      status: 'blocked_validation_required',
      conversationId,
      messageId: answer,
      metadata: { toolName: 'delete_record', mcpServerName: 'crm' },
    });
    ok(
      await dust.validateAction({
        conversationId,
        messageId: answer,
        actionId: waiting.actionId,
        approved: 'approved',
      }),
    );
    await untilStatus(conversationId, answer, (status) => status === 'succeeded');
    const conversation = ok(await dust.getConversation({ conversationId }));
    const message = conversation.content.flat().find((slot) => slot.sId === answer);
    const [action] = message?.type === 'agent_message' ? message.actions : [];
    expect(action).toMatchObject({
      sId: waiting.actionId,
      functionCallName: 'crm__delete_record',
      functionCallId: expect.stringMatching(/\S/),
      mcpServerId: crm!.serverSId,
      internalMCPServerName: null,
      status: 'succeeded',
      citationsAllocated: 0,
      generatedFiles: [],
      displayLabels: null,
    });
    expect(action.updatedAt).toBeGreaterThanOrEqual(action.createdAt);
    expect(action.executionDurationMs).toEqual(expect.any(Number));
  });

  it('takes the context fields 1.2.8 sends on a post, keeps them on the message, and ends the stream with runIds', async () => {
    const created = await createdBySdk('First', []);
    const conversationId = created.conversation.sId;
    const origin = created.message.sId;
    const message = ok(
      await dust.postUserMessage({
        conversationId,
        message: {
          content: 'Summarise, please',
          mentions: [{ configurationId: assistant }],
          context: {
            ...context,
            origin: 'api',
            clientSideMCPServerIds: ['local_files'],
            selectedMCPServerViewIds: [],
            lastTriggerRunAt: 1_767_225_600_000,
          },
          agenticMessageData: { type: 'run_agent', originMessageId: origin },
          blocking: false,
          skipToolsValidation: false,
        },
      }),
    );
    expect(message.context).toMatchObject({
      clientSideMCPServerIds: ['local_files'],
      lastTriggerRunAt: 1_767_225_600_000,
    });
    expect(message.agenticMessageData).toEqual({ type: 'run_agent', originMessageId: origin });
    const conversation = ok(await dust.getConversation({ conversationId }));
    const events = await eventsOfAnswer(conversation, message.sId);
    const last = events[events.length - 1] as { type: string; runIds?: unknown };
    expect(last).toMatchObject({ type: 'agent_message_success', runIds: [expect.stringMatching(/^\d+$/)] });
  });

  it("adds a selected view's tools to the message's run (selectedMCPServerViewIds)", async () => {
    await toolAgent();
    const created = await createdBySdk('Start', []);
    const before = mcp.calls.filter((call) => call.name === 'echo').length;
    const message = ok(
      await dust.postUserMessage({
        conversationId: created.conversation.sId,
        message: {
          content: '/tool crm__echo {"text": "from a selected view"}',
          mentions: [{ configurationId: assistant }],
          context: { ...context, origin: 'api', selectedMCPServerViewIds: [crm!.viewSId] },
        },
      }),
    );
    const conversation = ok(await dust.getConversation({ conversationId: created.conversation.sId }));
    const events = await eventsOfAnswer(conversation, message.sId);
    expect(events.map((event) => event.type)).toContain('agent_action_success');
    expect(mcp.calls.filter((call) => call.name === 'echo').slice(before)).toEqual([
      expect.objectContaining({ args: { text: 'from a selected view' } }),
    ]);
  });

  it('runs a tool that needs approval at once when the poster skips validation (skipToolsValidation)', async () => {
    const agent = await toolAgent();
    const created = ok(
      await dust.createConversation({
        title: null,
        visibility: 'unlisted',
        message: {
          content: '/tool crm__delete_record {"id": "rec_skip"}',
          mentions: [{ configurationId: agent }],
          context,
        },
        contentFragment: undefined,
        contentFragments: undefined,
        blocking: true,
        skipToolsValidation: true,
      }),
    );
    // blocking: the answer is already there, its tool run without any approval.
    const answer = created.conversation.content
      .map((versions) => versions[versions.length - 1])
      .find((slot) => slot.type === 'agent_message');
    expect(answer).toMatchObject({ status: 'succeeded' });
    expect(answer?.type === 'agent_message' && answer.actions.map((action) => action.status)).toEqual([
      'succeeded',
    ]);
    expect(mcp.calls.filter((call) => call.name === 'delete_record')).toContainEqual(
      expect.objectContaining({ args: { id: 'rec_skip' } }),
    );
  });

  it("takes a model selection naming the agent's own model, and refuses another with a clear 400", async () => {
    const agent = await toolAgent();
    const message = (modelId: string, reasoningEffort?: string) => ({
      content: 'Which model?',
      mentions: [{ configurationId: agent }],
      context,
      // The client's types list Dust's providers; its schema takes any id, as this service's `local`.
      modelSelection: { providerId: 'local', modelId, reasoningEffort } as unknown as ModelSelection,
    });
    const base = {
      title: 'Models',
      visibility: 'unlisted' as const,
      contentFragment: undefined,
      contentFragments: undefined,
    };
    ok(await dust.createConversation({ ...base, message: message('local-1') }));
    // The agent was created without a reasoning effort: it runs with "none".
    ok(await dust.createConversation({ ...base, message: message('local-1', 'none') }));
    for (const [modelId, effort] of [['gpt-5'], ['local-1', 'high']]) {
      const refused = await dust.createConversation({ ...base, message: message(modelId, effort) });
      expect(refused.isErr() && refused.error).toMatchObject({
        type: 'invalid_request_error',
        message: expect.stringContaining('modelSelection'),
      });
    }
  });

  it("keeps a fragment's url as its source link and its context as its author (singular contentFragment)", async () => {
    const created = ok(
      await dust.createConversation({
        title: 'Sources',
        visibility: 'unlisted',
        depth: 1,
        message: undefined,
        contentFragment: {
          title: 'Plan',
          content: 'Ship on Friday.',
          contentType: 'text/plain',
          url: 'https://docs.example.com/plan',
          context: { username: 'ada', fullName: 'Ada Lovelace' },
        },
        contentFragments: [{ title: 'Notes', content: 'And test.', contentType: 'text/plain' }],
      }),
    );
    const slots = created.conversation.content.map((versions) => versions[versions.length - 1]);
    expect(slots).toEqual([
      expect.objectContaining({
        type: 'content_fragment',
        title: 'Plan',
        contentFragmentType: 'file',
        sourceUrl: 'https://docs.example.com/plan',
        context: expect.objectContaining({ username: 'ada', fullName: 'Ada Lovelace' }),
      }),
      expect.objectContaining({ type: 'content_fragment', title: 'Notes', sourceUrl: null }),
    ]);
    const raw = await dust.request({
      method: 'GET',
      path: `assistant/conversations/${created.conversation.sId}`,
    });
    expect(JSON.parse(raw.isOk() ? (raw.value.response.body as string) : '{}').conversation.depth).toBe(1);
  });

  it('still refuses a key the client does not send', async () => {
    const res = await dust.request({
      method: 'POST',
      path: 'assistant/conversations',
      body: { title: 'x', visibility: 'unlisted', blocking: false, notAField: true },
    });
    expect(res.isOk() && res.value.response.status).toBe(400);
  });

  describe('the high-level API', () => {
    function client(options: { autoApproveTools?: boolean } = {}) {
      return new DustAPI({
        baseUrl: dust.apiUrl(),
        apiKey: a.admin.secret,
        workspaceId: wId,
        logger,
        ...options,
      });
    }

    it('creates, reads and lists conversations', async () => {
      const high = client();
      const created = await high.conversations.create({ title: 'High level' });
      expect(await high.conversations.get(created.id)).toMatchObject({ id: created.id, title: 'High level' });
      expect((await high.conversations.list()).map((conversation) => conversation.id)).toContain(created.id);
    });

    it('sends a message and gets the answer', async () => {
      const response = await client().agents.sendMessage({
        agentId: assistant,
        message: 'What is the plan?',
        context: { username: 'ada', timezone: 'UTC' },
      });
      expect(response.text).toBe(
        localAnswer('You are a helpful assistant. Answer the latest message using the conversation so far.', [
          { role: 'user', content: 'What is the plan?' },
        ]),
      );
    });

    it('uploads a file, and sends it with a message', async () => {
      const high = client();
      const file = await high.files.upload(new File(['Numbers: up.'], 'numbers.txt', { type: 'text/plain' }));
      expect(file).toMatchObject({ name: 'numbers.txt', contentType: 'text/plain', size: 12 });
      const response = await high.agents.sendMessage({
        agentId: assistant,
        message: 'Read the attachment',
        attachments: [{ fileId: file.id }],
        context: { username: 'ada', timezone: 'UTC' },
      });
      expect(response.conversationId).toEqual(expect.any(String));
    });

    it('streams a message whose tool waits for approval, approved by the handler', async () => {
      const agent = await toolAgent();
      const stream = client().agents.streamMessage({
        agentId: agent,
        message: '/tool crm__delete_record {"id": "rec_handler"}',
        context: { username: 'ada', timezone: 'UTC' },
      });
      const asked: string[] = [];
      stream.on('toolApprovalRequired', (approval) => {
        asked.push(`${approval.serverName}/${approval.toolName}`);
        return true;
      });
      const streamed: string[] = [];
      stream.on('action', (action) => streamed.push(`${action.toolName}:${action.status}`));
      const response = await stream.finalMessage();
      expect(asked).toEqual(['crm/delete_record']);
      expect(response.conversationId).toEqual(expect.any(String));
      // The run's action, as the client reports it: the id validateAction takes, the call's input and output.
      const conversation = ok(await dust.getConversation({ conversationId: response.conversationId }));
      const answer = conversation.content.flat().find((m) => m.sId === response.agentMessageId);
      const stored = answer?.type === 'agent_message' ? answer.actions : [];
      expect(response.actions).toEqual([
        {
          id: stored[0]?.sId,
          type: 'tool_action',
          toolName: 'delete_record',
          input: { id: 'rec_handler' },
          output: [{ type: 'text', text: expect.stringContaining('rec_handler') }],
          status: 'success',
        },
      ]);
      expect(streamed).toEqual(['delete_record:success']);
      expect(mcp.calls.filter((call) => call.name === 'delete_record')).toContainEqual(
        expect.objectContaining({ args: { id: 'rec_handler' } }),
      );
    });

    it('sends a message whose tool waits for approval with autoApproveTools', async () => {
      const agent = await toolAgent();
      const errorsBefore = logger.errors.length;
      const response = await client({ autoApproveTools: true }).agents.sendMessage({
        agentId: agent,
        message: '/tool crm__delete_record {"id": "rec_auto"}',
        context: { username: 'ada', timezone: 'UTC' },
      });
      expect(response.agentMessageId).toEqual(expect.any(String));
      expect(mcp.calls.filter((call) => call.name === 'delete_record')).toContainEqual(
        expect.objectContaining({ args: { id: 'rec_auto' } }),
      );
      expect(response.actions.map(({ toolName, input, status }) => ({ toolName, input, status }))).toEqual([
        { toolName: 'delete_record', input: { id: 'rec_auto' }, status: 'success' },
      ]);
      expect(logger.errors.slice(errorsBefore)).toEqual([]);
    });
  });
});

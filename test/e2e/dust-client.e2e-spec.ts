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
  /** An agent whose toolset is the test MCP server, `delete_record` waiting for approval. */
  async function toolAgent(): Promise<string> {
    if (toolAgentSId) return toolAgentSId;
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
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { UrgentWork } from 'src/platform/scheduling/urgent-work';
import { AgentRunner } from 'src/modules/runtime/workers/agent-runner.worker';
import { localAnswer } from 'src/modules/runtime/domain/local-answer';
import { expect } from 'test/support/expect';
import { until } from 'test/support/until';
import { FakeOpenAi } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, ApiWorld, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };
const ASSISTANT_INSTRUCTIONS =
  'You are a helpful assistant. Answer the latest message using the conversation so far.';

describe('agent runtime', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let baseUrl: string;
  let agents: Record<string, string>;
  const openai = new FakeOpenAi();

  /** Another process on the same database, with its own pace and number of answers at once. */
  const siblingApp = (runs: {
    LOCAL_MODEL_CHUNK_DELAY_MS: number;
    RUN_CONCURRENCY: number;
    RUN_DRAIN_MS?: number;
  }) =>
    createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { RUN_HEARTBEAT_MS: 200, RUN_STALE_AFTER_MS: 60_000, ...runs },
    });

  /**
   * A process on a database of its own, with a workspace and its global agents: what it answers
   * is all its own work, since no other process takes from its queue.
   */
  const apartApp = async (runs: { LOCAL_MODEL_CHUNK_DELAY_MS: number; RUN_CONCURRENCY: number }) => {
    const app = await createTestApp({ env: { RUN_HEARTBEAT_MS: 200, RUN_STALE_AFTER_MS: 60_000, ...runs } });
    const apartWorld = new World(app);
    const fixture = await apartWorld.workspace();
    return { app, world: apartWorld, fixture, agents: await apartWorld.globalAgents(fixture) };
  };

  beforeAll(async () => {
    const openaiUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 1_000,
        OPENAI_MAX_RETRIES: 2,
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 10,
        RUN_CONCURRENCY: 8,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    agents = await world.globalAgents(a);
    agents.gpt = (
      await world.agent(a.admin, {
        name: 'gpt',
        description: '',
        instructions: 'You are gpt.',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0.2 },
      })
    ).sId;
  });
  afterAll(async () => {
    await t.close();
    await openai.stop();
  });

  it('answers a mention: new, tokens, done on the stream, and the reply in the messages', async () => {
    const { sId: conversation } = await world.conversation(a.admin, { title: 'Ask' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, conversation)}`, {
      Authorization: `Bearer ${a.admin.secret}`,
    });
    try {
      const posted = await api(t, a.admin)
        .post(paths.messages(wId, conversation))
        .send({ content: 'What is the plan?', mentions: [{ configurationId: agents.assistant }], context })
        .expect(200);
      await until(
        async () => stream.events.map((event) => event.data.type),
        (types) => types.includes('agent_message_done'),
      );
      const types = stream.events.map((event) => event.data.type);
      expect(types[0]).toBe('user_message_new');
      expect(types[1]).toBe('agent_message_new');
      expect(types[types.length - 1]).toBe('agent_message_done');
      const tokens = stream.events.filter((event) => event.data.type === 'generation_tokens');
      const expected = localAnswer(
        'You are a helpful assistant. Answer the latest message using the conversation so far.',
        [{ role: 'user', content: 'What is the plan?' }],
      );
      expect(tokens.map((event) => event.data.text).join('')).toBe(expected);
      expect(tokens.length).toBeGreaterThanOrEqual(1);
      expect(tokens.length).toBeLessThan(expected.length / 3);
      for (const event of stream.events)
        expect(event.data).toMatchApiSchema(`${pascal(event.data.type as string)}Event`);
      const done = stream.events[stream.events.length - 1].data;
      expect(done).toMatchObject({
        conversationId: conversation,
        configurationId: agents.assistant,
        status: 'success',
      });

      const list = await world.messages(a.admin, conversation);
      expect(list).toHaveLength(2);
      expect(list[1]).toMatchObject({
        type: 'agent_message',
        status: 'succeeded',
        content: expected,
        rank: 1,
        parentMessageId: posted.body.message.sId,
        configuration: { sId: agents.assistant, name: 'assistant' },
        error: null,
      });
    } finally {
      stream.close();
    }
  });

  it('gives two replies when two agents are mentioned, and counts them in usage', async () => {
    const { sId: cId } = await world.conversation(member, {
      message: 'Summarise and answer',
      mentions: [agents.assistant, agents.summarizer],
    });
    const list = await world.settled(a.admin, cId, 2);
    expect(list.map((m) => [m.type, m.rank, m.configuration?.name ?? null])).toEqual([
      ['user_message', 0, null],
      ['agent_message', 1, 'assistant'],
      ['agent_message', 2, 'summarizer'],
    ]);
    const usage = await api(t, a.admin)
      .get(`${paths.agents(wId)}?view=global&withUsage=true`)
      .expect(200);
    expect(usage.body).toMatchApiSchema('AgentConfigurationsResponse');
    const summarizer = (
      usage.body.agentConfigurations as { name: string; usage: Record<string, number> }[]
    ).find((agent) => agent.name === 'summarizer')!;
    expect(summarizer.usage).toEqual({
      messageCount: 1,
      conversationCount: 1,
      userCount: 1,
      timePeriodSec: 2_592_000,
    });
  });

  describe('openai adapter', () => {
    it('streams an answer from an OpenAI-compatible endpoint with the agent instructions', async () => {
      openai.script({ kind: 'stream', chunks: ['Hel', 'lo ', 'there'] });
      const before = openai.requests.length;
      const { sId: cId } = await world.conversation(a.admin, {
        message: 'Say hello',
        mentions: [agents.gpt],
      });
      const [, reply] = await world.settled(a.admin, cId);
      expect(reply).toMatchObject({ status: 'succeeded', content: 'Hello there' });
      const request = openai.requests[before];
      expect(request.authorization).toBe('Bearer sk-test');
      expect(request.body).toMatchObject({
        model: 'gpt-test',
        temperature: 0.2,
        stream: true,
        messages: [
          { role: 'system', content: 'You are gpt.' },
          { role: 'user', content: 'Say hello' },
        ],
      });
    });

    it('streams reasoning as chain_of_thought tokens, apart from the answer', async () => {
      const delta = (fields: Record<string, string>) => JSON.stringify({ choices: [{ delta: fields }] });
      openai.script({
        kind: 'raw',
        data: [
          delta({ reasoning_content: 'The user greets; ' }),
          delta({ reasoning: 'answer briefly.' }),
          delta({ content: 'Hi ' }),
          delta({ content: 'there' }),
          '[DONE]',
        ],
      });
      const { sId: cId } = await world.conversation(a.admin, { title: 'Thinking' });
      const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, {
        Authorization: `Bearer ${a.admin.secret}`,
      });
      try {
        await api(t, a.admin)
          .post(paths.messages(wId, cId))
          .send({ content: 'Hello', mentions: [{ configurationId: agents.gpt }], context })
          .expect(200);
        await until(
          async () => stream.events.map((event) => event.data.type),
          (types) => types.includes('agent_message_done'),
        );
        const tokens = stream.events.filter((event) => event.data.type === 'generation_tokens');
        for (const event of tokens) expect(event.data).toMatchApiSchema('GenerationTokensEvent');
        const text = (classification: string) =>
          tokens
            .filter((event) => event.data.classification === classification)
            .map((event) => event.data.text)
            .join('');
        expect(text('chain_of_thought')).toBe('The user greets; answer briefly.');
        expect(text('tokens')).toBe('Hi there');
        expect(tokens[0].data.classification).toBe('chain_of_thought');
      } finally {
        stream.close();
      }
      const [, reply] = await world.settled(a.admin, cId);
      expect(reply).toMatchObject({ status: 'succeeded', content: 'Hi there' });
    });

    it('retries a 500 and then succeeds', async () => {
      openai.script({ kind: 'status', status: 500 }, { kind: 'stream', chunks: ['after retry'] });
      const before = openai.requests.length;
      const { sId: cId } = await world.conversation(a.admin, {
        message: 'Try again',
        mentions: [agents.gpt],
      });
      const [, reply] = await world.settled(a.admin, cId);
      expect(reply).toMatchObject({ status: 'succeeded', content: 'after retry' });
      expect(openai.requests.length - before).toBe(2);
    });

    it('waits what a 429 asks, then streams the answer to the message', async () => {
      openai.script(
        { kind: 'status', status: 429, headers: { 'retry-after-ms': '200' } },
        { kind: 'stream', chunks: ['After', ' the limit.'] },
      );
      const before = openai.requests.length;
      const { sId: cId } = await world.conversation(a.admin, {
        message: 'Busy?',
        mentions: [agents.gpt],
      });
      const [, reply] = await world.settled(a.admin, cId);
      expect(reply).toMatchObject({ status: 'succeeded', content: 'After the limit.' });
      const [limited, answered] = openai.requests.slice(before);
      expect(openai.requests.length - before).toBe(2);
      // A lower bound only: the retry comes no earlier than asked.
      expect(answered.at - limited.at).toBeGreaterThanOrEqual(190);
    });

    it('fails the message, marks the conversation and says why when the model times out', async () => {
      openai.script({ kind: 'stall' });
      const { sId: cId } = await world.conversation(a.admin, {
        message: 'Are you there?',
        mentions: [agents.gpt],
      });
      const [, reply] = await world.settled(a.admin, cId);
      expect(reply).toMatchObject({
        status: 'failed',
        error: { code: 'model_timeout', message: expect.any(String) },
      });
      const conversation = await api(t, a.admin).get(paths.conversation(wId, cId)).expect(200);
      expect(conversation.body.conversation.hasError).toBe(true);
    });

    it('fails with a clear error when the provider is not configured', async () => {
      const bare = await createTestApp({ databaseUrl: t.config.databaseUrl! });
      try {
        const { sId: cId } = await new ApiWorld(bare).conversation(a.admin, {
          message: 'hi',
          mentions: [agents.gpt],
        });
        const [, reply] = await world.settled(a.admin, cId);
        expect(reply.error).toEqual({
          code: 'model_provider_not_configured',
          message: expect.stringContaining('OPENAI_BASE_URL'),
          metadata: null,
        });
      } finally {
        await bare.close();
      }
    });
  });

  it('cancels a running answer, once, and tells the stream', async () => {
    const slow = await siblingApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 150, RUN_CONCURRENCY: 8 });
    const slowWorld = new ApiWorld(slow);
    try {
      const { sId: cId, message } = await slowWorld.conversation(a.admin, {
        message: 'Long answer please',
        mentions: [agents.assistant],
      });
      const running = await until(
        () => slowWorld.messages(a.admin, cId),
        (list) => list.length === 2 && list[1].content.length > 0,
      );
      const agentMessage = running[1];
      const cancel = await api(slow, member)
        .post(`${paths.message(wId, cId, agentMessage.sId)}/cancel`)
        .expect(200);
      expect(cancel.body).toMatchApiSchema('MessageResponse');
      expect(cancel.body.message.status).toBe('cancelled');
      const again = await api(slow, member)
        .post(`${paths.message(wId, cId, agentMessage.sId)}/cancel`)
        .expect(200);
      expect(again.body.message.status).toBe('cancelled');
      await until(
        async () => slow.app.get(AgentRunner).activeRuns,
        (count) => count === 0,
      );
      const final = await world.messages(a.admin, cId);
      expect(final[1].status).toBe('cancelled');
      const log = await eventsOf(t, a.admin, cId);
      const types = log.map((row) => row.type);
      expect(types.filter((type) => type === 'agent_generation_cancelled')).toHaveLength(1);
      expect(types).not.toContain('agent_message_done');
      await api(slow, member)
        .post(`${paths.message(wId, cId, message!.sId)}/cancel`)
        .expect(400);
    } finally {
      await slow.close();
    }
  });

  it('hands the runs a stopping process leaves behind over: another process ends them, as one answer', async () => {
    const stopping = await siblingApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 300, RUN_CONCURRENCY: 8 });
    const { sId: cId } = await new ApiWorld(stopping).conversation(a.admin, {
      message: 'Finished elsewhere',
      mentions: [agents.assistant],
    });
    await until(
      () => world.messages(a.admin, cId),
      (list) => list.length === 2 && list[1].content !== '',
    );
    await stopping.close();
    const [, answer] = await world.settled(a.admin, cId);
    const expected = localAnswer(ASSISTANT_INSTRUCTIONS, [{ role: 'user', content: 'Finished elsewhere' }]);
    expect(answer).toMatchObject({ status: 'succeeded', error: null, content: expected });
    const tokens = (await eventsOf<{ text?: string; classification?: string }>(t, a.admin, cId)).filter(
      (event) => event.type === 'generation_tokens' && event.payload.classification === 'tokens',
    );
    expect(tokens.map((event) => event.payload.text).join('')).toBe(expected);
  });

  it('lets the runs under way finish their answers when the process stops, within RUN_DRAIN_MS', async () => {
    const draining = await siblingApp({
      LOCAL_MODEL_CHUNK_DELAY_MS: 100,
      RUN_CONCURRENCY: 8,
      RUN_DRAIN_MS: 60_000,
    });
    const { sId: cId } = await new ApiWorld(draining).conversation(a.admin, {
      message: 'Finished before the stop',
      mentions: [agents.assistant],
    });
    await until(
      () => world.messages(a.admin, cId),
      (list) => list.length === 2 && list[1].content !== '',
    );
    await draining.close();
    const [, answer] = await world.messages(a.admin, cId);
    expect(answer).toMatchObject({ status: 'succeeded', error: null });
    expect(answer.content).toBe(
      localAnswer(ASSISTANT_INSTRUCTIONS, [{ role: 'user', content: 'Finished before the stop' }]),
    );
  });

  describe('while urgent work runs', () => {
    let slow: Awaited<ReturnType<typeof apartApp>>;
    /** Reads `later` before `earlier`: if `earlier` is still running, it was at the first read too. */
    const readBoth = async (later: string, earlier: string) =>
      [
        await slow.world.messages(slow.fixture.admin, later),
        await slow.world.messages(slow.fixture.admin, earlier),
      ] as const;

    beforeAll(async () => {
      slow = await apartApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 250, RUN_CONCURRENCY: 4 });
    });
    afterAll(() => slow.app.close());

    it('answers one message at a time, and as many as allowed once it has ended', async () => {
      let release!: () => void;
      const urgent = slow.app.app
        .get(UrgentWork)
        .run(() => new Promise<void>((resolve) => (release = resolve)));
      const { sId: first } = await slow.world.conversation(slow.fixture.admin, {
        message: 'First while urgent',
        mentions: [slow.agents.assistant],
      });
      const { sId: second } = await slow.world.conversation(slow.fixture.admin, {
        message: 'Second while urgent',
        mentions: [slow.agents.assistant],
      });
      const [secondWhileFirstRuns] = await until(
        () => readBoth(second, first),
        ([, earlier]) => earlier.length === 2 && earlier[1].status === 'created',
      );
      expect(secondWhileFirstRuns.map((m) => m.type)).toEqual(['user_message']);

      release();
      await urgent;
      // Now the second starts while the first still runs.
      const [secondRunning] = await until(
        () => readBoth(second, first),
        ([later, earlier]) =>
          later.length === 2 && later[1].status === 'created' && earlier[1].status === 'created',
      );
      expect(secondRunning[1].type).toBe('agent_message');
      for (const cId of [first, second])
        expect((await slow.world.settled(slow.fixture.admin, cId))[1].status).toBe('succeeded');
    });
  });

  describe('with answers shared across workspaces', () => {
    let shared: Awaited<ReturnType<typeof apartApp>>;
    let sharedWorld: World;
    let other: WorkspaceFixture;
    let otherAgents: Record<string, string>;

    beforeAll(async () => {
      shared = await apartApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 250, RUN_CONCURRENCY: 2 });
      sharedWorld = shared.world;
      other = await sharedWorld.workspace();
      otherAgents = await sharedWorld.globalAgents(other);
    });
    afterAll(() => shared.app.close());

    it("answers another workspace's mention while one workspace's burst still waits", async () => {
      const burst: string[] = [];
      for (let i = 0; i < 4; i++) {
        const { sId } = await sharedWorld.conversation(shared.fixture.admin, {
          message: `Burst ${i}`,
          mentions: [shared.agents.assistant],
        });
        burst.push(sId);
      }
      const { sId: lone } = await sharedWorld.conversation(other.admin, {
        message: 'Just one question',
        mentions: [otherAgents.assistant],
      });
      // Read the burst's last message after the lone one: if it has not started then, it had not before.
      const [loneStarted, lastOfBurst] = await until(
        async () =>
          [
            await sharedWorld.messages(other.admin, lone),
            await sharedWorld.messages(shared.fixture.admin, burst[3]),
          ] as const,
        ([list]) => list.length === 2,
      );
      expect(loneStarted[1]).toMatchObject({ type: 'agent_message' });
      expect(lastOfBurst.map((m) => m.type)).toEqual(['user_message']);
      for (const [fixture, cId] of [
        [other, lone] as const,
        ...burst.map((cId) => [shared.fixture, cId] as const),
      ]) {
        const done = await until(
          () => sharedWorld.messages(fixture.admin, cId),
          (list) => list.length === 2 && list[1].status !== 'created',
        );
        expect(done[1].status).toBe('succeeded');
      }
    });
  });

  describe('with one answer at a time', () => {
    let single: Awaited<ReturnType<typeof apartApp>>;

    beforeAll(async () => {
      single = await apartApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 250, RUN_CONCURRENCY: 1 });
    });
    afterAll(() => single.app.close());

    it('answers a message once the answer before it has ended', async () => {
      const { world: singleWorld, fixture, agents: singleAgents } = single;
      const { sId: first } = await singleWorld.conversation(fixture.admin, {
        message: 'First in line',
        mentions: [singleAgents.assistant],
      });
      const { sId: second } = await singleWorld.conversation(fixture.admin, {
        message: 'Second in line',
        mentions: [singleAgents.assistant],
      });
      // Read the second before the first: while the first is still running, the second has not started.
      const [secondWhileFirstRuns, firstRunning] = await until(
        async () =>
          [
            await singleWorld.messages(fixture.admin, second),
            await singleWorld.messages(fixture.admin, first),
          ] as const,
        ([, list]) => list.length === 2 && list[1].status === 'created',
      );
      expect(secondWhileFirstRuns.map((m) => m.type)).toEqual(['user_message']);
      expect(firstRunning[1].status).toBe('created');
      const [firstDone, secondDone] = [
        await singleWorld.settled(fixture.admin, first),
        await singleWorld.settled(fixture.admin, second),
      ];
      expect(firstDone[1].status).toBe('succeeded');
      expect(secondDone[1].status).toBe('succeeded');
    });
  });

  it('leaves the messages waiting on a stopping process queued: another process answers them all', async () => {
    const stopping = await siblingApp({ LOCAL_MODEL_CHUNK_DELAY_MS: 1_000, RUN_CONCURRENCY: 1 });
    const cIds: string[] = [];
    for (const content of ['Running', 'Waiting', 'Waiting too']) {
      const { sId } = await new ApiWorld(stopping).conversation(a.admin, {
        message: content,
        mentions: [agents.assistant],
      });
      cIds.push(sId);
    }
    await stopping.close();
    for (const [index, cId] of cIds.entries()) {
      const [question, answer] = await world.settled(a.admin, cId);
      expect(answer).toMatchObject({
        status: 'succeeded',
        content: localAnswer(ASSISTANT_INSTRUCTIONS, [
          { role: 'user', content: ['Running', 'Waiting', 'Waiting too'][index] },
        ]),
      });
      expect(question.content).toBe(['Running', 'Waiting', 'Waiting too'][index]);
    }
  });

  it('runs the agents an edit adds, and only those', async () => {
    const { sId: cId, message } = await world.conversation(a.admin, { message: 'No agent yet' });
    const edited = await api(t, a.admin)
      .post(`${paths.message(wId, cId, message!.sId)}/edit`)
      .send({ content: 'Now with an agent', mentions: [{ configurationId: agents.summarizer }] })
      .expect(200);
    const list = await world.settled(a.admin, cId);
    expect(list.filter((m) => m.type === 'agent_message').map((m) => m.configuration?.name)).toEqual([
      'summarizer',
    ]);
    await api(t, a.admin)
      .post(`${paths.message(wId, cId, edited.body.message.sId)}/edit`)
      .send({ content: 'Same agent, new words', mentions: [{ configurationId: agents.summarizer }] })
      .expect(200);
    // The edit queues its runs in one request, started in one transaction: once the rerun has
    // settled, any other answer of the edit would be there too.
    const settled = await world.settled(a.admin, cId);
    expect(settled.filter((m) => m.type === 'agent_message')).toHaveLength(1);
  });
});

function pascal(type: string): string {
  return type
    .split('_')
    .map((part) => part[0].toUpperCase() + part.slice(1))
    .join('');
}

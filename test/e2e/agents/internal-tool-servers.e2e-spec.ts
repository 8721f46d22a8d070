import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Caller } from 'src/platform/auth/caller';
import type { McpSession, McpToolOutput } from 'src/platform/mcp/mcp-session';
import { InternalServersService } from 'src/modules/agents/application/internal-servers.service';
import {
  InternalToolContext,
  InternalToolServers,
} from 'src/modules/runtime/application/ports/internal-tool-servers';
import type { ModelUsage } from 'src/modules/runtime/application/ports/model-provider';
import type { RunTokens } from 'src/modules/runtime/application/ports/run-tokens';
import { TokenBudgetRefused } from 'src/modules/runtime/application/run-tokens';
import { reservedTokens } from 'src/modules/runtime/domain/model-call-reservation';
import { RunDataSpaces } from 'src/modules/runtime/domain/run-data-spaces';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface WakeUpBody {
  sId: string;
  status: string;
  agentConfigurationId: string;
  owner: string;
  reason: string;
  maxFires: number;
  scheduleConfig: { type: string; fireAt?: number; cron?: string; timezone?: string };
}

const REASONING_MODEL = 'o3-mini-test';
const MAX_DEPTH = 2;
const HOUR = 3_600_000;

describe('internal tool servers', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let builder: Actor;
  let wId: string;
  let agentSId: string;
  let memberCaller: Caller;
  const openai = new FakeOpenAi();
  const sessions: McpSession[] = [];

  /** What `askAgent` was called with, and what it answers. */
  let asked: { agentSId: string; query: string; signal: AbortSignal }[] = [];
  let answer: () => Promise<string> = async () => 'forty-two';

  /** The holds a tool's model calls reserved and settled; a refusal when `refusing` is set. */
  let holds: { reserved: number; settled: ModelUsage | null }[] = [];
  let refusing: TokenBudgetRefused | null = null;
  const tokens: RunTokens = {
    reserve: async (request) => {
      if (refusing) throw refusing;
      holds.push({ reserved: reservedTokens(request), settled: null });
      return { tokens: reservedTokens(request) };
    },
    settle: async (hold, usage) => {
      holds.find((held) => held.reserved === hold.tokens)!.settled = usage;
    },
  };

  const contextFor = (caller: Caller, conversationSId: string, depth = 0): InternalToolContext => ({
    caller,
    conversationSId,
    agentSId,
    depth,
    dataSpaces: new RunDataSpaces(),
    askAgent: async (target, query, signal) => {
      asked.push({ agentSId: target, query, signal });
      return answer();
    },
    tokens,
  });

  const open = async (name: string, context: InternalToolContext): Promise<McpSession> => {
    const session = await t.app.get(InternalToolServers).open(name, context);
    sessions.push(session);
    return session;
  };

  const call = (session: McpSession, tool: string, args: Record<string, unknown>): Promise<McpToolOutput> =>
    session.callTool(tool, args, { signal: new AbortController().signal, timeoutMs: 10_000 });

  const wakeUpsOf = async (actor: Actor, cId: string): Promise<WakeUpBody[]> => {
    const res = await api(t, actor).get(paths.wakeUps(actor.workspace.sId, cId)).expect(200);
    expect(res.body).toMatchApiSchema('WakeUpsResponse');
    return res.body.wakeUps as WakeUpBody[];
  };

  const textOf = (output: McpToolOutput) => output.content.map((item) => item.text).join('');

  beforeAll(async () => {
    const openaiUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        REASONING_MODEL_ID: REASONING_MODEL,
        RUN_AGENT_MAX_DEPTH: MAX_DEPTH,
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    builder = await world.member(a.workspace, 'builder');
    agentSId = (await world.agent(builder)).sId;
    memberCaller = await world.caller(a.workspace, member.user);
  });

  afterAll(async () => {
    for (const session of sessions) await session.close();
    await t.close();
    await openai.stop();
  });

  describe('which servers are offered', () => {
    it('lists the catalogue with what works here, and refuses to open the others', async () => {
      const listing = t.app.get(InternalServersService).list();
      const available = Object.fromEntries(listing.map((server) => [server.name, server.available]));
      expect(available).toEqual({
        search: true,
        include_data: true,
        query_tables: false,
        extract_data: false,
        'web_search_&_browse': false,
        image_generation: false,
        run_agent: true,
        reasoning: true,
        wake_ups: true,
        triggers: true,
      });
      expect(listing.find((server) => server.name === 'wake_ups')).toEqual({
        name: 'wake_ups',
        description: 'Schedules and cancels wake-ups of this conversation.',
        available: true,
        unavailableReason: null,
      });
      expect(listing.find((server) => server.name === 'query_tables')?.unavailableReason).toBe(
        'The internal tool server "query_tables" is not configured on this service (not_configured).',
      );

      const { sId } = await world.conversation(member);
      const servers = t.app.get(InternalToolServers);
      await expect(servers.open('query_tables', contextFor(memberCaller, sId))).rejects.toThrow(
        'The internal tool server "query_tables" is not configured on this service (not_configured).',
      );
      await expect(servers.open('nope', contextFor(memberCaller, sId))).rejects.toThrow(
        'No internal tool server is named "nope"',
      );
    });

    it('skips an internal server that is not offered on PATCH, resolves one that is, and refuses it on creation', async () => {
      const agent = await world.agent(builder);
      const res = await api(t, builder)
        .patch(paths.agentUpdate(wId, agent.sId))
        .send({
          toolset: [
            { name: 'find', type: 'MCP', configuration: { mcp_server_name: 'query_tables' } },
            { name: 'later', type: 'MCP', configuration: { mcp_server_name: 'wake_ups' } },
          ],
        })
        .expect(200);
      expect(res.body).toMatchApiSchema('UpdatedAgentConfigurationResponse');
      expect(res.body.skippedActions).toEqual([
        {
          name: 'find',
          reason:
            'The internal tool server "query_tables" is not configured on this service (not_configured).',
        },
      ]);
      expect(res.body.agentConfiguration.actions).toEqual([
        expect.objectContaining({
          name: 'later',
          mcpServerName: 'wake_ups',
          internal: true,
          description: 'Schedules and cancels wake-ups of this conversation.',
        }),
      ]);

      const before = await t.dataSource.query('SELECT count(*) FROM agent_configurations');
      const created = await api(t, builder)
        .post(paths.agents(wId))
        .send({
          assistant: {
            name: 'finder',
            description: '',
            instructions: 'Find things.',
            scope: 'visible',
            model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
            actions: [{ name: 'find', mcpServerName: 'query_tables' }],
          },
        });
      expectError(created, 400, 'invalid_request_error');
      expect(created.body.error.message).toContain('not_configured');
      expect(await t.dataSource.query('SELECT count(*) FROM agent_configurations')).toEqual(before);
    });
  });

  describe('wake_ups', () => {
    it('lists its tools with their JSON schemas', async () => {
      const { sId } = await world.conversation(member);
      const tools = await (await open('wake_ups', contextFor(memberCaller, sId))).listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['schedule_wake_up', 'list_wake_ups', 'cancel_wake_up']);
      expect(tools[0].description).toContain('exactly one of fireAt, delayMinutes or cron');
      expect(tools[0].inputSchema).toMatchObject({
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string', minLength: 1, maxLength: 1000 },
          fireAt: { type: 'string', format: 'date-time' },
          delayMinutes: { type: 'integer', minimum: 1 },
          cron: { type: 'string' },
          timezone: { type: 'string' },
          maxFires: { type: 'integer', minimum: 1, maximum: 32 },
        },
      });
      expect(tools[2].inputSchema).toMatchObject({
        required: ['wakeUpId'],
        properties: { wakeUpId: { type: 'string' } },
      });
    });

    it('schedules a wake-up of the conversation for the calling agent, as the caller, then lists and cancels it', async () => {
      const { sId } = await world.conversation(member);
      const session = await open('wake_ups', contextFor(memberCaller, sId));
      const fireAt = new Date(Date.now() + 2 * HOUR);
      fireAt.setUTCMilliseconds(0);

      const scheduled = await call(session, 'schedule_wake_up', {
        fireAt: fireAt.toISOString(),
        message: 'Check whether the deployment finished.',
      });
      expect(scheduled.isError).toBe(false);
      const [wakeUp] = await wakeUpsOf(member, sId);
      expect(wakeUp).toMatchObject({
        status: 'scheduled',
        owner: member.user.sId,
        agentConfigurationId: agentSId,
        reason: 'Check whether the deployment finished.',
        scheduleConfig: { type: 'one_shot', fireAt: fireAt.getTime() },
      });
      expect(textOf(scheduled)).toBe(
        `Scheduled wake-up ${wakeUp.sId}: fires once at ${fireAt.toISOString()}.`,
      );

      const listed = await call(session, 'list_wake_ups', {});
      expect(listed.isError).toBe(false);
      expect(textOf(listed)).toContain(`${wakeUp.sId}: fires once at ${fireAt.toISOString()}`);
      expect(textOf(listed)).toContain(`scheduled by ${member.user.sId}`);

      const cancelled = await call(session, 'cancel_wake_up', { wakeUpId: wakeUp.sId });
      expect({ isError: cancelled.isError, text: textOf(cancelled) }).toEqual({
        isError: false,
        text: `Wake-up ${wakeUp.sId} is cancelled: it will not fire.`,
      });
      expect((await wakeUpsOf(member, sId)).map((w) => w.status)).toEqual(['cancelled']);
      expect(textOf(await call(session, 'list_wake_ups', {}))).toBe(
        'No wake-up is scheduled in this conversation.',
      );
      const again = await call(session, 'cancel_wake_up', { wakeUpId: wakeUp.sId });
      // Cancelling again changes nothing and is no error: the wake-up stays cancelled.
      expect({ isError: again.isError, text: textOf(again) }).toEqual({
        isError: false,
        text: `Wake-up ${wakeUp.sId} is cancelled: it will not fire.`,
      });
      expect((await wakeUpsOf(member, sId)).map((w) => w.status)).toEqual(['cancelled']);
    });

    it('schedules after a delay, and on a cron schedule in a timezone', async () => {
      const delayed = await world.conversation(member);
      const session = await open('wake_ups', contextFor(memberCaller, delayed.sId));
      const before = Date.now();
      const output = await call(session, 'schedule_wake_up', { delayMinutes: 90, message: 'Follow up.' });
      expect(output.isError).toBe(false);
      const [oneShot] = await wakeUpsOf(member, delayed.sId);
      expect(oneShot.scheduleConfig.fireAt).toBeGreaterThanOrEqual(before + 90 * 60_000);
      expect(oneShot.scheduleConfig.fireAt).toBeLessThanOrEqual(Date.now() + 90 * 60_000);

      const repeated = await world.conversation(member);
      const cron = await open('wake_ups', contextFor(memberCaller, repeated.sId));
      const output2 = await call(cron, 'schedule_wake_up', {
        cron: '0 9 * * 1-5',
        timezone: 'Europe/Paris',
        maxFires: 3,
        message: 'Daily stand-up summary.',
      });
      expect(output2.isError).toBe(false);
      expect(textOf(output2)).toMatch(
        /fires on "0 9 \* \* 1-5" \(Europe\/Paris\), next at .+, at most 3 times\.$/,
      );
      const [daily] = await wakeUpsOf(member, repeated.sId);
      expect(daily).toMatchObject({
        maxFires: 3,
        scheduleConfig: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
      });
    });

    it('answers invalid input with a tool error that says what is wrong, and writes nothing', async () => {
      const { sId } = await world.conversation(member);
      const session = await open('wake_ups', contextFor(memberCaller, sId));
      const inAnHour = new Date(Date.now() + HOUR).toISOString();
      const cases: [Record<string, unknown>, string][] = [
        [{ message: 'x' }, 'Give exactly one of fireAt, delayMinutes or cron.'],
        [
          { message: 'x', fireAt: inAnHour, cron: '0 9 * * *' },
          'Give exactly one of fireAt, delayMinutes or cron.',
        ],
        [{ message: 'x', fireAt: inAnHour, timezone: 'UTC' }, 'timezone and maxFires go only with cron'],
        [{ message: 'x', fireAt: '2020-01-01T00:00:00Z' }, 'fireAt: must be in the future.'],
        [{ message: 'x', delayMinutes: 60 * 24 * 40 }, 'delayMinutes'],
        [{ message: 'x', fireAt: 'tomorrow at nine' }, 'fireAt'],
        [{ message: 'x', cron: '* * * * *' }, 'cron: firings must be at least 5 minutes apart.'],
        [
          { message: 'x', cron: '0 9 * * *', timezone: 'Mars/Olympus' },
          'timezone: "Mars/Olympus" is not an IANA timezone.',
        ],
        [{ message: '', delayMinutes: 5 }, 'message'],
        [{ fireAt: inAnHour }, 'message'],
      ];
      for (const [args, message] of cases) {
        const output = await call(session, 'schedule_wake_up', args);
        expect({ args, isError: output.isError, text: textOf(output) }).toEqual({
          args,
          isError: true,
          text: expect.stringContaining(message),
        });
      }
      expect(await wakeUpsOf(member, sId)).toEqual([]);
    });

    it('refuses a second scheduled wake-up of the conversation, leaving the first', async () => {
      const { sId } = await world.conversation(member);
      const session = await open('wake_ups', contextFor(memberCaller, sId));
      expect((await call(session, 'schedule_wake_up', { delayMinutes: 30, message: 'One' })).isError).toBe(
        false,
      );
      const second = await call(session, 'schedule_wake_up', { delayMinutes: 60, message: 'Two' });
      expect({ isError: second.isError, text: textOf(second) }).toEqual({
        isError: true,
        text: 'This conversation already has a scheduled wake-up.',
      });
      expect((await wakeUpsOf(member, sId)).map((w) => w.reason)).toEqual(['One']);
    });

    it("cannot see or cancel another conversation's or another workspace's wake-up", async () => {
      const mine = await world.conversation(member);
      const elsewhere = await world.conversation(member);
      const foreign = await world.wakeUp(member, elsewhere.sId, { agent: agentSId });
      const outside = await world.conversation(b.admin);
      const otherAgent = (await world.agent(b.admin)).sId;
      const foreignWorkspace = await world.wakeUp(b.admin, outside.sId, { agent: otherAgent });

      const session = await open('wake_ups', contextFor(memberCaller, mine.sId));
      expect(textOf(await call(session, 'list_wake_ups', {}))).toBe(
        'No wake-up is scheduled in this conversation.',
      );
      for (const wakeUpId of [foreign.sId, foreignWorkspace.sId, 'wku_doesnotexist']) {
        const output = await call(session, 'cancel_wake_up', { wakeUpId });
        expect({ isError: output.isError, text: textOf(output) }).toEqual({
          isError: true,
          text: `Wake-up ${wakeUpId} not found in this conversation.`,
        });
      }
      expect((await wakeUpsOf(member, elsewhere.sId)).map((w) => w.status)).toEqual(['scheduled']);
      expect((await wakeUpsOf(b.admin, outside.sId)).map((w) => w.status)).toEqual(['scheduled']);
    });

    it("leaves another member's wake-up to its owner, and a fired one as it is", async () => {
      const { sId } = await world.conversation(member);
      const theirs = await world.wakeUp(member, sId, { agent: agentSId });
      const builderCaller = await world.caller(a.workspace, builder.user);
      const session = await open('wake_ups', contextFor(builderCaller, sId));
      const refused = await call(session, 'cancel_wake_up', { wakeUpId: theirs.sId });
      expect({ isError: refused.isError, text: textOf(refused) }).toEqual({
        isError: true,
        text: 'Only the owner of a wake-up or a workspace admin can cancel it.',
      });
      expect((await wakeUpsOf(member, sId)).map((w) => w.status)).toEqual(['scheduled']);

      await t.dataSource.query(
        `UPDATE wakeups SET status = 'fired', fire_count = 1, next_fire_at = NULL WHERE s_id = $1`,
        [theirs.sId],
      );
      const mine = await open('wake_ups', contextFor(memberCaller, sId));
      const fired = await call(mine, 'cancel_wake_up', { wakeUpId: theirs.sId });
      expect({ isError: fired.isError, text: textOf(fired) }).toEqual({
        isError: false,
        text: `Wake-up ${theirs.sId} was not scheduled any more (fired); nothing changed.`,
      });
      expect((await wakeUpsOf(member, sId)).map((w) => w.status)).toEqual(['fired']);
    });

    it('answers a conversation the caller cannot read as not found', async () => {
      const theirs = await world.conversation(b.admin);
      const session = await open('wake_ups', contextFor(memberCaller, theirs.sId));
      const output = await call(session, 'schedule_wake_up', { delayMinutes: 30, message: 'x' });
      expect(output.isError).toBe(true);
      expect(textOf(output)).toContain(theirs.sId);
      expect(await wakeUpsOf(b.admin, theirs.sId)).toEqual([]);
    });
  });

  describe('run_agent', () => {
    it('lists run_agent and asks the agent through the run, returning its answer', async () => {
      const { sId } = await world.conversation(member);
      const target = await world.agent(builder);
      const session = await open('run_agent', contextFor(memberCaller, sId, MAX_DEPTH - 1));
      const [tool] = await session.listTools();
      expect(tool).toMatchObject({
        name: 'run_agent',
        inputSchema: { required: ['agentId', 'query'], properties: { agentId: { type: 'string' } } },
      });

      asked = [];
      answer = async () => 'forty-two';
      const output = await call(session, 'run_agent', {
        agentId: target.sId,
        query: 'What is six times seven?',
      });
      expect(output).toEqual({ isError: false, content: [{ type: 'text', text: 'forty-two' }] });
      expect(asked).toEqual([
        { agentSId: target.sId, query: 'What is six times seven?', signal: expect.any(AbortSignal) },
      ]);
    });

    it('refuses beyond the depth limit, for an agent the caller cannot use, and reports a failed answer', async () => {
      const { sId } = await world.conversation(member);
      const target = await world.agent(builder);
      asked = [];
      const deep = await open('run_agent', contextFor(memberCaller, sId, MAX_DEPTH));
      const refused = await call(deep, 'run_agent', { agentId: target.sId, query: 'Hello?' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain(`at most ${MAX_DEPTH} level(s) deep (depth limit reached)`);

      const session = await open('run_agent', contextFor(memberCaller, sId));
      const restricted = (await world.agentNeedingSpace(a.admin)).agentSId;
      const otherWorkspace = (await world.agent(b.admin)).sId;
      for (const agentId of [restricted, otherWorkspace, 'nosuchagent']) {
        const output = await call(session, 'run_agent', { agentId, query: 'Hello?' });
        expect({ isError: output.isError, text: textOf(output) }).toEqual({
          isError: true,
          text: `No agent "${agentId}" that you can use exists in this workspace.`,
        });
      }
      expect(asked).toEqual([]);

      answer = async () => {
        throw new Error('the model is not reachable');
      };
      const failed = await call(session, 'run_agent', { agentId: target.sId, query: 'Hello?' });
      expect({ isError: failed.isError, text: textOf(failed) }).toEqual({
        isError: true,
        text: `The agent "${target.name}" could not answer: the model is not reachable`,
      });
    });
  });

  describe('reasoning', () => {
    it('asks the configured reasoning model of the openai provider and returns its answer', async () => {
      const { sId } = await world.conversation(member);
      const session = await open('reasoning', contextFor(memberCaller, sId));
      const [tool] = await session.listTools();
      expect(tool).toMatchObject({ name: 'reason', inputSchema: { required: ['question'] } });

      openai.requests.length = 0;
      openai.script({ kind: 'stream', chunks: ['The answer', ' is 42.'] });
      const output = await call(session, 'reason', { question: 'What is six times seven?' });
      expect(output).toEqual({ isError: false, content: [{ type: 'text', text: 'The answer is 42.' }] });
      expect(openai.requests).toHaveLength(1);
      expect(openai.requests[0].body).toMatchObject({ model: REASONING_MODEL });
      const messages = openai.requests[0].body.messages as { role: string; content: string }[];
      expect(messages.filter((message) => message.role === 'user')).toEqual([
        { role: 'user', content: 'What is six times seven?' },
      ]);
      expect(openai.requests[0].body.tools ?? []).toEqual([]);

      openai.script({ kind: 'status', status: 400 });
      const failed = await call(session, 'reason', { question: 'Again?' });
      expect(failed.isError).toBe(true);
      expect(textOf(failed)).toContain('The reasoning model failed: The model endpoint answered 400');
    });

    it("reserves its call from the run's tokens and settles it at the usage reported, or is refused without asking", async () => {
      const { sId } = await world.conversation(member);
      const session = await open('reasoning', contextFor(memberCaller, sId));
      holds = [];
      openai.requests.length = 0;
      openai.script({
        kind: 'stream',
        chunks: ['Yes.'],
        usage: { prompt: 30, completion: 300, reasoning: 290 },
      });
      await call(session, 'reason', { question: 'Is 7 prime?' });
      expect(holds).toEqual([
        {
          reserved: expect.any(Number),
          settled: { promptTokens: 30, completionTokens: 300, reasoningTokens: 290 },
        },
      ]);
      // No cap is sent unless RUN_MAX_OUTPUT_TOKENS sets one; the call reserves 16,384 and its prompt.
      expect(openai.requests[0].body).not.toHaveProperty('max_completion_tokens');
      expect(holds[0].reserved).toBeGreaterThan(16_384);

      refusing = new TokenBudgetRefused(1_000, 16_500, new Date('2026-03-10T00:00:00Z'));
      try {
        const refused = await call(session, 'reason', { question: 'Is 9 prime?' });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain(
          "The reasoning model failed: This workspace's monthly token budget",
        );
        expect(openai.requests).toHaveLength(1);
      } finally {
        refusing = null;
      }
    });
  });
});

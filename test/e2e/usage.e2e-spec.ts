import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi, FakeUsage } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, KeyHolder, World, WorkspaceFixture, api } from 'test/support/world';

const usagePath = (wId: string) => `/api/w/${wId}/usage`;
const budgetPath = (wId: string) => `/api/w/${wId}/usage/budget`;

describe('usage accounting', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let writer: string;
  let critic: string;
  const openai = new FakeOpenAi();

  async function gptAgent(admin: KeyHolder, name: string): Promise<string> {
    const agent = await world.agent(admin, {
      name,
      instructions: 'Answer briefly.',
      model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
    });
    return agent.sId;
  }

  /** Asks `agent` in a new conversation, the fake answering with `usage`; waits for the answer. */
  async function ask(actor: KeyHolder, agent: string, usage: FakeUsage): Promise<string> {
    openai.script({ kind: 'stream', chunks: ['Here ', 'it is.'], usage });
    const built = await world.conversation(actor, { message: 'Draft a note.', mentions: [agent] });
    const [answer] = (await world.settled(actor, built.sId)).filter((m) => m.type === 'agent_message');
    expect(answer).toMatchObject({ status: 'succeeded' });
    return answer.sId;
  }

  /** Moves the run of an agent message to another start (and end), as if it ran then. */
  async function ranAt(messageSId: string, startedAt: string, durationMs: number): Promise<void> {
    await t.dataSource.query(
      `UPDATE agent_runs SET created_at = $2::timestamptz,
              finished_at = $2::timestamptz + make_interval(secs => $3::float8 / 1000)
        WHERE message_id = (SELECT id FROM messages WHERE s_id = $1)`,
      [messageSId, startedAt, durationMs],
    );
  }

  beforeAll(async () => {
    const baseUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: baseUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
      },
    });
    world = new World(t);
    a = await world.workspace();
    b = await world.workspace();
    member = await world.member(a.workspace, 'user');
    writer = await gptAgent(a.admin, 'Writer');
    critic = await gptAgent(a.admin, 'Critic');
  });
  afterAll(async () => {
    await t.close();
    await openai.stop();
  });

  it("records the fake's token counts on the run, with its agent and model", async () => {
    const before = openai.requests.length;
    const mId = await ask(a.admin, writer, { prompt: 1200, completion: 85, reasoning: 40 });
    expect(openai.requests[before].body.stream_options).toEqual({ include_usage: true });

    const [run] = await t.dataSource.query<Record<string, unknown>[]>(
      `SELECT r.agent_s_id, r.model_provider_id, r.model_id, r.prompt_tokens, r.completion_tokens,
              r.reasoning_tokens, r.status, r.finished_at IS NOT NULL AS finished
         FROM agent_runs r JOIN messages m ON m.id = r.message_id WHERE m.s_id = $1`,
      [mId],
    );
    expect(run).toEqual({
      agent_s_id: writer,
      model_provider_id: 'openai',
      model_id: 'gpt-test',
      prompt_tokens: 1200,
      completion_tokens: 85,
      reasoning_tokens: 40,
      status: 'succeeded',
      finished: true,
    });
    await ranAt(mId, '2026-03-09T12:00:00Z', 1_000);
  });

  describe('the usage route', () => {
    beforeAll(async () => {
      // Two agents over two days: the writer twice on the 10th and once on the 11th, the critic once on the 11th.
      const runs: [string, FakeUsage, string, number][] = [
        [writer, { prompt: 100, completion: 10, reasoning: 0 }, '2026-03-10T08:00:00Z', 2_000],
        [writer, { prompt: 200, completion: 20, reasoning: 5 }, '2026-03-10T23:59:00Z', 3_000],
        [writer, { prompt: 400, completion: 40, reasoning: 0 }, '2026-03-11T00:01:00Z', 4_000],
        [critic, { prompt: 800, completion: 80, reasoning: 30 }, '2026-03-11T15:00:00Z', 5_000],
      ];
      for (const [agent, usage, at, duration] of runs)
        await ranAt(await ask(a.admin, agent, usage), at, duration);
    });

    const report = (actor: KeyHolder, query: string, wId = actor.workspace.sId) =>
      api(t, actor).get(`${usagePath(wId)}?${query}`);

    it('sums the runs by agent and by day over the range, with the total', async () => {
      const byAgent = await report(a.admin, 'start=2026-03-10&end=2026-03-11&groupBy=agent').expect(200);
      expect(byAgent.body).toMatchApiSchema('UsageReportResponse');
      expect(byAgent.body).toEqual({
        start: '2026-03-10T00:00:00.000Z',
        end: '2026-03-12T00:00:00.000Z',
        groupBy: ['agent'],
        rows: expect.arrayContaining([
          {
            agentSId: writer,
            runs: 3,
            messages: 3,
            promptTokens: 700,
            completionTokens: 70,
            reasoningTokens: 5,
            durationMs: 9_000,
          },
          {
            agentSId: critic,
            runs: 1,
            messages: 1,
            promptTokens: 800,
            completionTokens: 80,
            reasoningTokens: 30,
            durationMs: 5_000,
          },
        ]),
        total: {
          runs: 4,
          messages: 4,
          promptTokens: 1500,
          completionTokens: 150,
          reasoningTokens: 35,
          durationMs: 14_000,
        },
      });
      expect(byAgent.body.rows).toHaveLength(2);

      const byDay = await report(a.admin, 'start=2026-03-10&end=2026-03-11&groupBy=day').expect(200);
      expect(byDay.body.rows).toEqual([
        expect.objectContaining({ day: '2026-03-10', runs: 2, promptTokens: 300, completionTokens: 30 }),
        expect.objectContaining({ day: '2026-03-11', runs: 2, promptTokens: 1200, completionTokens: 120 }),
      ]);

      const both = await report(a.admin, 'start=2026-03-10&end=2026-03-11&groupBy=day,agent').expect(200);
      expect(both.body.rows.map((row: { day: string; agentSId: string; runs: number }) => row)).toEqual([
        expect.objectContaining({ day: '2026-03-10', agentSId: writer, runs: 2 }),
        ...[writer, critic]
          .sort()
          .map((agentSId) => expect.objectContaining({ day: '2026-03-11', agentSId, runs: 1 })),
      ]);
      // The run moved to the 9th is outside the range.
      const ninth = await report(a.admin, 'start=2026-03-09&end=2026-03-09&groupBy=user,model').expect(200);
      expect(ninth.body.rows).toEqual([
        {
          userSId: a.admin.user.sId,
          modelProviderId: 'openai',
          modelId: 'gpt-test',
          runs: 1,
          messages: 1,
          promptTokens: 1200,
          completionTokens: 85,
          reasoningTokens: 40,
          durationMs: 1_000,
        },
      ]);
    });

    it('answers CSV with a header row when asked for text/csv', async () => {
      const res = await report(a.admin, 'start=2026-03-10&end=2026-03-11&groupBy=day')
        .set('Accept', 'text/csv')
        .expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        'attachment; filename="usage-2026-03-10-2026-03-12.csv"',
      );
      expect(res.text).toBe(
        '"day","runs","messages","promptTokens","completionTokens","reasoningTokens","durationMs"\r\n' +
          '"2026-03-10",2,2,300,30,5,5000\r\n' +
          '"2026-03-11",2,2,1200,120,30,9000\r\n',
      );
    });

    it('refuses a member with 403, and bad ranges or groups with clear 400s', async () => {
      expectError(await report(member, 'start=2026-03-10&end=2026-03-11'), 403, 'workspace_auth_error');
      for (const [query, mentions] of [
        ['end=2026-03-11', 'start: required'],
        ['start=2026-03-10&end=2026-13-01', 'end: not an ISO 8601 date'],
        ['start=2026-02-30&end=2026-03-11', 'start: not an ISO 8601 date'],
        ['start=2026-03-11&end=2026-03-10', 'end: must come after start'],
        ['start=2025-01-01&end=2026-03-11', 'at most 366 days'],
        [
          'start=2026-03-10&end=2026-03-11&groupBy=agent,week',
          '"week" is not one of day, agent, user, model',
        ],
        ['start=2026-03-10&end=2026-03-11&groupBy=day,day', 'listed twice'],
      ]) {
        const res = await report(a.admin, query);
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toContain(mentions);
      }
    });

    it("never shows another workspace's usage", async () => {
      const foreign = await report(b.admin, 'start=2026-03-01&end=2026-03-31&groupBy=agent').expect(200);
      expect(foreign.body.rows).toEqual([]);
      expect(foreign.body.total).toMatchObject({ runs: 0, promptTokens: 0 });
      expectError(
        await report(b.admin, 'start=2026-03-01&end=2026-03-31', a.workspace.sId),
        401,
        'workspace_auth_error',
      );
    });
  });

  describe('the monthly token budget', () => {
    it('lets a run that crosses it finish, then refuses new runs, writing nothing, until it renews', async () => {
      const c = await world.workspace();
      const agent = await gptAgent(c.admin, 'Summariser');
      const set = await api(t, c.admin)
        .patch(budgetPath(c.workspace.sId))
        .send({ monthlyTokens: 100 })
        .expect(200);
      expect(set.body).toMatchApiSchema('TokenBudgetResponse');
      expect(set.body).toMatchObject({
        monthlyTokens: 100,
        source: 'workspace',
        usedTokens: 0,
        spent: false,
      });

      // The first run starts under the budget and finishes past it.
      await ask(c.admin, agent, { prompt: 120, completion: 30 });
      const now = new Date();
      const renewsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
      const status = await api(t, c.admin).get(budgetPath(c.workspace.sId)).expect(200);
      expect(status.body).toEqual({
        monthlyTokens: 100,
        source: 'workspace',
        usedTokens: 150,
        periodStart: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
        renewsAt,
        spent: true,
      });

      const built = await world.conversation(c.admin, { title: 'Notes' });
      const requests = openai.requests.length;
      const refused = await api(t, c.admin)
        .post(paths.messages(c.workspace.sId, built.sId))
        .send({
          content: 'Summarise.',
          mentions: [{ configurationId: agent }],
          context: { username: 'ada', timezone: 'UTC' },
        });
      expectError(refused, 429, 'rate_limit_error');
      expect(refused.body.error.message).toContain(`renews at ${renewsAt}`);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const refusedCreation = await api(t, c.admin)
        .post(paths.conversations(c.workspace.sId))
        .send({
          message: {
            content: 'Again.',
            mentions: [{ configurationId: agent }],
            context: { username: 'ada', timezone: 'UTC' },
          },
        });
      expectError(refusedCreation, 429, 'rate_limit_error');

      expect(await world.messages(c.admin, built.sId)).toEqual([]);
      const [{ count }] = await t.dataSource.query<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM conversations WHERE workspace_id = $1`,
        [c.workspace.id],
      );
      expect(count).toBe(2);
      expect(openai.requests.length).toBe(requests);
      // A message that asks no agent still posts; another workspace is not held back.
      await world.message(c.admin, built.sId, 'A note to self.');
      await ask(a.admin, writer, { prompt: 1, completion: 1 });

      // Removing the workspace's budget lifts the refusal.
      await api(t, c.admin).patch(budgetPath(c.workspace.sId)).send({ monthlyTokens: null }).expect(200);
      await ask(c.admin, agent, { prompt: 10, completion: 5 });
    });

    it('is set by admins only, to a positive integer or null', async () => {
      expectError(
        await api(t, member).patch(budgetPath(a.workspace.sId)).send({ monthlyTokens: 5 }),
        403,
        'workspace_auth_error',
      );
      for (const monthlyTokens of [0, -5, 1.5, '100']) {
        expectError(
          await api(t, a.admin).patch(budgetPath(a.workspace.sId)).send({ monthlyTokens }),
          400,
          'invalid_request_error',
        );
      }
      const status = await api(t, a.admin).get(budgetPath(a.workspace.sId)).expect(200);
      expect(status.body).toMatchObject({ monthlyTokens: null, source: 'none', spent: false });
    });
  });
});

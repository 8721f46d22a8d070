import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi, FakeUsage } from 'test/support/fake-openai';
import { AgentRunRepository } from 'src/modules/runtime/application/ports/agent-run.repository';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

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
        RUN_MAX_OUTPUT_TOKENS: 100,
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
    expect(openai.requests[before].body.max_completion_tokens).toBe(100);

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
    it('lets a call that costs more than it reserved finish, then refuses new runs, writing nothing, until it renews', async () => {
      const c = await world.workspace();
      const agent = await gptAgent(c.admin, 'Summariser');
      const set = await api(t, c.admin)
        .patch(budgetPath(c.workspace.sId))
        .send({ monthlyTokens: 1000 })
        .expect(200);
      expect(set.body).toMatchApiSchema('TokenBudgetResponse');
      expect(set.body).toMatchObject({
        monthlyTokens: 1000,
        source: 'workspace',
        usedTokens: 0,
        spent: false,
      });

      // The call reserves its 100 tokens of output and its prompt's estimate, far less than the
      // prompt of 900 the fake reports: it finishes past the budget, settled at what it cost.
      await ask(c.admin, agent, { prompt: 900, completion: 150 });
      const now = new Date();
      const renewsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
      const status = await api(t, c.admin).get(budgetPath(c.workspace.sId)).expect(200);
      expect(status.body).toEqual({
        monthlyTokens: 1000,
        source: 'workspace',
        usedTokens: 1050,
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

    /**
     * `posts` conversations created at once by a plain member, each mentioning `agent`, the fake
     * answering each call with `usage`; answers the agent messages once they all ended, and the
     * tokens the workspace used this month then.
     */
    async function burst(
      workspace: WorkspaceFixture,
      agent: string,
      posts: number,
      usage: FakeUsage,
    ): Promise<{ answers: ListedMessage[]; usedTokens: number; heldTokens: number }> {
      const plain = await world.member(workspace.workspace, 'user');
      for (let i = 0; i < posts; i++) openai.script({ kind: 'stream', chunks: ['Done.'], usage });
      const built = await Promise.all(
        Array.from({ length: posts }, (_, i) =>
          world.conversation(plain, { message: `Summarise report ${i}.`, mentions: [agent] }),
        ),
      );
      const answers = (await Promise.all(built.map(({ sId }) => world.settled(plain, sId)))).map((messages) =>
        messages.find((m) => m.type === 'agent_message')!,
      );
      openai.unscript();
      const status = await api(t, workspace.admin).get(budgetPath(workspace.workspace.sId)).expect(200);
      const [{ held }] = await t.dataSource.query<{ held: number }[]>(
        'SELECT coalesce(sum(reserved_tokens), 0)::int AS held FROM workspace_run_tokens WHERE workspace_id = $1',
        [workspace.workspace.id],
      );
      return { answers, usedTokens: status.body.usedTokens as number, heldTokens: held };
    }

    it('holds under 20 parallel posts with one token left: no call can reserve, so none is made', async () => {
      const d = await world.workspace();
      const agent = await gptAgent(d.admin, 'Reporter');
      await api(t, d.admin).patch(budgetPath(d.workspace.sId)).send({ monthlyTokens: 5000 }).expect(200);
      await ask(d.admin, agent, { prompt: 4800, completion: 199 });

      const requests = openai.requests.length;
      const { answers, usedTokens, heldTokens } = await burst(d, agent, 20, {
        prompt: 1800,
        completion: 211,
      });
      const spent = usedTokens - 4999;
      console.log(
        `20 parallel posts with 1 token of 5000 left: ${spent} tokens spent, ${openai.requests.length - requests} model calls made`,
      );
      // Every post was accepted (one token was left), and every run was refused at its model call.
      expect(answers).toHaveLength(20);
      for (const answer of answers) {
        expect(answer).toMatchObject({ status: 'failed', error: { code: 'rate_limit_error' } });
        expect(answer.error!.message).toContain('monthly token budget');
      }
      expect(openai.requests.length).toBe(requests);
      expect(spent).toBe(0);
      expect(heldTokens).toBe(0);
    });

    it('lets 20 parallel posts spend at most what was left: each call reserves before it starts', async () => {
      const e = await world.workspace();
      const agent = await gptAgent(e.admin, 'Analyst');
      await api(t, e.admin).patch(budgetPath(e.workspace.sId)).send({ monthlyTokens: 1000 }).expect(200);

      // Each call costs less than it reserves (its output cap, 100, plus its prompt's estimate).
      const { answers, usedTokens, heldTokens } = await burst(e, agent, 20, { prompt: 10, completion: 100 });
      const succeeded = answers.filter((answer) => answer.status === 'succeeded');
      const refused = answers.filter((answer) => answer.error?.code === 'rate_limit_error');
      console.log(
        `20 parallel posts with 1000 tokens left: ${usedTokens} tokens spent by ${succeeded.length} answers, ${refused.length} refused`,
      );
      expect(succeeded.length + refused.length).toBe(20);
      expect(succeeded.length).toBeGreaterThan(0);
      expect(usedTokens).toBe(succeeded.length * 110);
      expect(usedTokens).toBeLessThanOrEqual(1000);
      // Every run ended: nothing is held any more.
      expect(heldTokens).toBe(0);
    });

    it("holds as one across connections, and a stopped runner's holds come back when its run is taken over", async () => {
      const f = await world.workspace();
      const agent = await gptAgent(f.admin, 'Archivist');
      await api(t, f.admin).patch(budgetPath(f.workspace.sId)).send({ monthlyTokens: 100_000 }).expect(200);
      const month = async () => {
        const [row] = await t.dataSource.query<{ used: number; reserved: number }[]>(
          `SELECT used_tokens::int AS used, reserved_tokens::int AS reserved
             FROM workspace_run_tokens WHERE workspace_id = $1`,
          [f.workspace.id],
        );
        return row ?? { used: 0, reserved: 0 };
      };

      // A call under way: the fake never answers it until the provider's timeout.
      openai.script({ kind: 'stall' });
      const built = await world.conversation(f.admin, { message: 'Archive this.', mentions: [agent] });
      const { reserved: first } = await until(month, ({ reserved }) => reserved > 0);
      const [run] = await t.dataSource.query<{ id: number; message_id: number; reserved: number }[]>(
        `SELECT id, message_id, reserved_tokens::int AS reserved FROM agent_runs WHERE workspace_id = $1`,
        [f.workspace.id],
      );
      expect(run.reserved).toBe(first);

      // 40 holds of 5,000 at once, on as many connections as the pool gives: only those that fit.
      const runs = t.app.get(AgentRunRepository);
      const granted = await Promise.all(
        Array.from({ length: 40 }, () => runs.reserveTokens(f.workspace.id, run.id, 5_000, 100_000)),
      );
      const fitting = Math.floor((100_000 - first) / 5_000);
      expect(granted.filter(Boolean)).toHaveLength(fitting);
      expect(await month()).toEqual({ used: 0, reserved: first + fitting * 5_000 });

      // Its runner fell silent: whoever takes the run over gives back what its calls held.
      await t.dataSource.query(
        `UPDATE agent_runs SET runner_heartbeat_at = now() - interval '1 hour' WHERE id = $1`,
        [run.id],
      );
      const [stale] = (await runs.findStale(60_000, 100)).filter((record) => record.id === run.id);
      expect(await runs.takeOver('another-runner', [stale], 60_000)).toEqual(new Set([stale.id]));
      expect(await month()).toEqual({ used: 0, reserved: 0 });

      // The stalled call times out and settles later, giving back nothing more.
      const [answer] = (await world.settled(f.admin, built.sId)).filter((m) => m.type === 'agent_message');
      expect(answer.error?.code).toBe('model_timeout');
      expect(await month()).toEqual({ used: 0, reserved: 0 });
    });

    it("gives back every hold of a workspace's runs taken over together, in one statement", async () => {
      const h = await world.workspace();
      const agent = await gptAgent(h.admin, 'Sorter');
      await api(t, h.admin).patch(budgetPath(h.workspace.sId)).send({ monthlyTokens: 100_000 }).expect(200);
      const reserved = async () =>
        (
          await t.dataSource.query<{ reserved: number }[]>(
            'SELECT reserved_tokens::int AS reserved FROM workspace_run_tokens WHERE workspace_id = $1',
            [h.workspace.id],
          )
        )[0]?.reserved ?? 0;
      const holding = async () =>
        t.dataSource.query<{ id: number; reserved: number }[]>(
          'SELECT id, reserved_tokens::int AS reserved FROM agent_runs WHERE workspace_id = $1 AND reserved_tokens > 0',
          [h.workspace.id],
        );
      openai.script({ kind: 'stall' }, { kind: 'stall' });
      const built = [
        await world.conversation(h.admin, { message: 'Sort these.', mentions: [agent] }),
        await world.conversation(h.admin, { message: 'And those.', mentions: [agent] }),
      ];
      const held = await until(holding, (rows) => rows.length === 2);
      expect(await reserved()).toBe(held[0].reserved + held[1].reserved);

      await t.dataSource.query(
        `UPDATE agent_runs SET runner_heartbeat_at = now() - interval '1 hour' WHERE workspace_id = $1`,
        [h.workspace.id],
      );
      const runs = t.app.get(AgentRunRepository);
      const stale = (await runs.findStale(60_000, 100)).filter(
        (record) => record.workspaceId === h.workspace.id,
      );
      expect(await runs.takeOver('another-runner', stale, 60_000)).toEqual(
        new Set(held.map((run) => run.id)),
      );
      expect(await reserved()).toBe(0);
      for (const { sId } of built) await world.settled(h.admin, sId);
    });

    it("keeps an ended run's holds off the month's row until they are given back in a statement of their own", async () => {
      const g = await world.workspace();
      const agent = await gptAgent(g.admin, 'Clerk');
      await api(t, g.admin).patch(budgetPath(g.workspace.sId)).send({ monthlyTokens: 100_000 }).expect(200);
      const reserved = async () =>
        (
          await t.dataSource.query<{ reserved: number }[]>(
            'SELECT coalesce(sum(reserved_tokens), 0)::int AS reserved FROM workspace_run_tokens WHERE workspace_id = $1',
            [g.workspace.id],
          )
        )[0].reserved;
      openai.script({ kind: 'stall' });
      const built = await world.conversation(g.admin, { message: 'File this.', mentions: [agent] });
      await until(reserved, (held) => held > 0);
      const [run] = await t.dataSource.query<{ message_id: number }[]>(
        'SELECT message_id FROM agent_runs WHERE workspace_id = $1',
        [g.workspace.id],
      );
      const runs = t.app.get(AgentRunRepository);
      // Ended as a transaction that ends several runs would: the month's row is not touched.
      expect(await runs.finish(g.workspace.id, run.message_id, 'cancelled')).toBe(true);
      const held = await reserved();
      expect(held).toBeGreaterThan(0);
      await runs.releaseHolds(g.workspace.id, run.message_id);
      expect(await reserved()).toBe(0);
      // Given back once: the stalled call settles later and gives back nothing more.
      await world.settled(g.admin, built.sId);
      expect(await reserved()).toBe(0);
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

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Client } from 'pg';
import { Clock } from 'src/platform/clock/clock';
import { ConversationsService } from 'src/modules/conversations/application/conversations.service';
import { BATCH_SIZE } from 'src/modules/wakeups/application/wakeup-firing.service';
import { MAX_ATTEMPTS } from 'src/modules/wakeups/domain/wakeup';
import { WakeUpsService } from 'src/modules/wakeups/application/wakeups.service';
import { WakeUpWorker } from 'src/modules/wakeups/workers/wakeup.worker';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { until } from 'test/support/until';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

class FakeClock extends Clock {
  constructor(private current: Date) {
    super();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: string): void {
    this.current = new Date(to);
  }
}

describe('wake-ups', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let other: Actor;
  let wId: string;
  let assistant: string;

  const schedule = (actor: Actor, cId: string, body: Record<string, unknown>) =>
    api(t, actor).post(paths.wakeUps(wId, cId)).send(body);
  const oneShot = (inMs: number, extra: Record<string, unknown> = {}) => ({
    agentConfigurationId: assistant,
    scheduleConfig: { type: 'one_shot', fireAt: Date.now() + inMs },
    reason: 'Check the deployment',
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RUN_HEARTBEAT_MS: 1000,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    other = await world.member(a.workspace, 'user');
    assistant = (await world.globalAgents(a)).assistant;
  });
  afterAll(() => t.close());

  it('fires a one-shot wake-up once: the system message, the reply, the fired state and the event', async () => {
    const { sId: cId } = await world.conversation(member, { title: 'Later' });
    const created = await schedule(member, cId, oneShot(1_000)).expect(200);
    expect(created.body).toMatchApiSchema('WakeUpResponse');
    expect(created.body.wakeUp).toMatchObject({
      sId: expect.stringMatching(/^wku_/),
      agentConfigurationId: assistant,
      scheduleConfig: { type: 'one_shot', fireAt: expect.any(Number) },
      reason: 'Check the deployment',
      status: 'scheduled',
      fireCount: 0,
      maxFires: 1,
      conversationId: cId,
      owner: member.user.sId,
    });

    const messages = await until(
      () => world.messages(member, cId),
      (list) => list.some((m) => m.type === 'agent_message' && m.status === 'succeeded'),
    );
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      type: 'user_message',
      content: 'Check the deployment',
      mentions: [{ configurationId: assistant }],
      context: { origin: 'wakeup' },
      user: { fullName: 'Wake-up' },
    });
    expect(messages[1]).toMatchObject({ type: 'agent_message', configuration: { sId: assistant } });

    const list = await api(t, member).get(paths.wakeUps(wId, cId)).expect(200);
    expect(list.body).toMatchApiSchema('WakeUpsResponse');
    expect(list.body.wakeUps).toEqual([expect.objectContaining({ status: 'fired', fireCount: 1 })]);

    const events = (await eventsOf<{ wakeUp: { status: string } }>(t, member, cId)).filter(
      (event) => event.type === 'wake_up_updated',
    );
    expect(events.map((event) => event.payload.wakeUp.status)).toEqual(['scheduled', 'fired']);
    for (const event of events) expect(event.payload).toMatchApiSchema('WakeUpUpdatedEvent');
  });

  describe('cancelling', () => {
    it('lets the owner cancel, and returns the same cancelled wake-up when cancelled twice', async () => {
      const { sId: cId } = await world.conversation(member, { title: 'Later' });
      const wakeUp = await world.wakeUp(member, cId, { agent: assistant });
      const first = await api(t, member)
        .delete(paths.wakeUp(wId, cId, wakeUp.sId))
        .expect(200);
      expect(first.body).toMatchApiSchema('WakeUpResponse');
      expect(first.body.wakeUp.status).toBe('cancelled');
      const second = await api(t, member)
        .delete(paths.wakeUp(wId, cId, wakeUp.sId))
        .expect(200);
      expect(second.body).toEqual(first.body);
      // A new one may be scheduled once the first is no longer scheduled.
      await schedule(member, cId, oneShot(3_600_000)).expect(200);
    });

    it("lets an admin cancel another member's wake-up, but not a plain member", async () => {
      const { sId: cId } = await world.conversation(member, { title: 'Later' });
      const wakeUp = await world.wakeUp(member, cId, { agent: assistant });
      const denied = await api(t, other)
        .delete(paths.wakeUp(wId, cId, wakeUp.sId))
        .expect(403);
      expect(denied.body).toEqual({ error: { type: 'workspace_auth_error', message: expect.any(String) } });
      const res = await api(t, a.admin)
        .delete(paths.wakeUp(wId, cId, wakeUp.sId))
        .expect(200);
      expect(res.body.wakeUp.status).toBe('cancelled');
    });

    it('answers unknown or foreign wake-ups with 404', async () => {
      const { sId: cId } = await world.conversation(member, { title: 'Later' });
      const { sId: elsewhere } = await world.conversation(member, { title: 'Later' });
      const wakeUp = await world.wakeUp(member, cId, { agent: assistant });
      for (const path of [
        paths.wakeUp(wId, elsewhere, wakeUp.sId),
        paths.wakeUp(wId, cId, 'wku_missing000'),
      ]) {
        const res = await api(t, member).delete(path).expect(404);
        expect(res.body.error.type).toBe('wakeup_not_found');
      }
      await api(t, b.admin).get(paths.wakeUps(wId, cId)).expect(401);
      const foreign = await api(t, b.admin).get(paths.wakeUps(b.workspace.sId, cId)).expect(404);
      expect(foreign.body.error.type).toBe('conversation_not_found');
    });
  });

  it('allows one scheduled wake-up per conversation and refuses bad schedules without writing', async () => {
    const { sId: cId } = await world.conversation(member, { title: 'Later' });
    const count = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM wakeups'))[0].n as number;
    const bad: Record<string, unknown>[] = [
      oneShot(-1_000),
      oneShot(32 * 24 * 3600 * 1000),
      oneShot(60_000, { maxFires: 2 }),
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '* * * * *', timezone: 'UTC' } },
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 9 * *', timezone: 'UTC' } },
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: 'H * * * *', timezone: 'UTC' } },
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 9 * * H', timezone: 'UTC' } },
      // A fifth Monday in February comes every 28 years or so; the 31st of February never.
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 0 * 2 1#5', timezone: 'UTC' } },
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 0 31 2 *', timezone: 'UTC' } },
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 9 * * *', timezone: 'Moon/Base' } },
      {
        ...oneShot(60_000),
        scheduleConfig: { type: 'cron', cron: '0 9 * * *', timezone: 'UTC' },
        maxFires: 33,
      },
      { ...oneShot(60_000), scheduleConfig: { type: 'weekly' } },
      { ...oneShot(60_000), agentConfigurationId: 'noSuchAgnt' },
      { ...oneShot(60_000), reason: '' },
      { ...oneShot(60_000), extra: true },
    ];
    const before = await count();
    for (const body of bad) {
      const res = await schedule(member, cId, body);
      expect({ body: JSON.stringify(body), status: res.status, type: res.body.error?.type }).toEqual({
        body: JSON.stringify(body),
        status: 400,
        type: 'invalid_request_error',
      });
    }
    expect(await count()).toBe(before);
    await schedule(member, cId, oneShot(3_600_000)).expect(200);
    const conflict = await schedule(member, cId, oneShot(7_200_000)).expect(409);
    expect(conflict.body.error.type).toBe('invalid_request_error');
  });

  it('refuses out-of-range fireAt numbers and says which field is wrong, writing nothing', async () => {
    const { sId: cId } = await world.conversation(member, { title: 'Later' });
    const count = async () =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM wakeups'))[0].n as number;
    const before = await count();
    const refused = async (body: Record<string, unknown> | string, message: RegExp) => {
      const res = await api(t, member)
        .post(paths.wakeUps(wId, cId))
        .set('Content-Type', 'application/json')
        .send(typeof body === 'string' ? body : JSON.stringify(body));
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error.message).toMatch(message);
    };
    // Sent as raw JSON text, so the numbers reach the service exactly as a client wrote them.
    const withFireAt = (fireAt: string) =>
      `{"agentConfigurationId":"${assistant}","reason":"Check","scheduleConfig":{"type":"one_shot","fireAt":${fireAt}}}`;
    for (const fireAt of ['1e308', '8640000000000001', '9007199254740993', '1e20', '-1e308']) {
      await refused(withFireAt(fireAt), /^scheduleConfig\.fireAt\b/);
    }
    await refused(
      { ...oneShot(60_000), agentConfigurationId: 'noSuchAgnt' },
      /^agentConfigurationId: .*noSuchAgnt/,
    );
    await refused(
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: '0 9 * * *' } },
      /^scheduleConfig\.timezone: required for cron/,
    );
    await refused(
      { ...oneShot(60_000), scheduleConfig: { type: 'cron', cron: 'H H * * *', timezone: 'UTC' } },
      /^scheduleConfig\.cron: H \(a hashed value\) is not accepted/,
    );
    expect(await count()).toBe(before);
  });

  it('follows a cron expression in its timezone and expires after maxFires', async () => {
    const clock = new FakeClock(new Date('2026-11-23T07:00:00Z'));
    const timed = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      overrides: [{ provide: Clock, useValue: clock }],
      env: {
        RUN_HEARTBEAT_MS: 1000,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
      },
    });
    try {
      const { sId: cId } = await world.conversation(member, { title: 'Later' });
      const res = await api(timed, member)
        .post(paths.wakeUps(wId, cId))
        .send({
          agentConfigurationId: assistant,
          scheduleConfig: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
          reason: 'Morning check',
          maxFires: 2,
        })
        .expect(200);
      expect(res.body.wakeUp).toMatchObject({
        scheduleConfig: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
        maxFires: 2,
      });
      const nextFireAt = async () =>
        (
          await timed.dataSource.query<{ next_fire_at: Date | null; status: string; fire_count: number }[]>(
            'SELECT next_fire_at, status, fire_count FROM wakeups WHERE s_id = $1',
            [res.body.wakeUp.sId],
          )
        )[0];
      expect((await nextFireAt()).next_fire_at?.toISOString()).toBe('2026-11-23T08:00:00.000Z');

      const scheduler = timed.app.get(WakeUpWorker);
      clock.set('2026-11-23T07:59:59Z');
      await scheduler.runDue();
      expect(await nextFireAt()).toMatchObject({ status: 'scheduled', fire_count: 0 });

      clock.set('2026-11-23T08:00:01Z');
      await scheduler.runDue();
      const afterFirst = await nextFireAt();
      expect(afterFirst).toMatchObject({ status: 'scheduled', fire_count: 1 });
      expect(afterFirst.next_fire_at?.toISOString()).toBe('2026-11-24T08:00:00.000Z');

      clock.set('2026-11-24T08:00:05Z');
      await scheduler.runDue();
      expect(await nextFireAt()).toMatchObject({ status: 'expired', fire_count: 2, next_fire_at: null });
    } finally {
      await timed.close();
    }
  });

  describe('firing in batches', () => {
    // Its own database: the controlled clock is ahead of real time, so its scheduler would
    // otherwise also fire the wake-ups other tests leave scheduled.
    const clock = new FakeClock(new Date('2027-03-01T09:00:00Z'));
    let timed: TestApp;
    let timedWorld: World;
    let scheduler: WakeUpWorker;
    let fixture: WorkspaceFixture;
    let owner: Actor;
    let agentSIds: Record<string, string>;

    const at = (offsetMs: number) => new Date('2027-03-01T09:00:00Z').getTime() + offsetMs;
    /** A conversation of `actor` with one wake-up of `agent` due at `fireAt`; returns both sIds. */
    const scheduled = async (actor: Actor, agent: string, fireAt: number, message?: boolean) => {
      const { sId: cId } = await timedWorld.conversation(
        actor,
        message ? { message: 'Hello', context: { username: 'u', timezone: 'UTC' } } : { title: 'Batch' },
      );
      const wakeUp = await timedWorld.wakeUp(actor, cId, { agent, fireAt, reason: 'Batch check' });
      return { cId, wakeUpSId: wakeUp.sId };
    };
    const state = async (wakeUpSId: string) =>
      (
        await timed.dataSource.query<
          { status: string; fire_count: number; attempts: number; next_fire_at: Date | null }[]
        >('SELECT status, fire_count, attempts, next_fire_at FROM wakeups WHERE s_id = $1', [wakeUpSId])
      )[0];
    const systemMessages = async (cId: string) =>
      (
        await timed.dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM messages m JOIN conversations c ON c.id = m.conversation_id
           WHERE c.s_id = $1 AND m.context->>'origin' = 'wakeup'`,
          [cId],
        )
      )[0].n;
    const announced = async (cId: string) =>
      (
        await timed.dataSource.query<{ status: string }[]>(
          `SELECT e.payload->'wakeUp'->>'status' AS status FROM conversation_events e
           JOIN conversations c ON c.id = e.conversation_id
           WHERE c.s_id = $1 AND e.type = 'wake_up_updated' ORDER BY e.id`,
          [cId],
        )
      ).map((row) => row.status);

    beforeAll(async () => {
      timed = await createTestApp({
        overrides: [{ provide: Clock, useValue: clock }],
        env: {
          RUN_HEARTBEAT_MS: 1000,
          RUN_STALE_AFTER_MS: 60_000,
          LOCAL_MODEL_CHUNK_DELAY_MS: 0,
          RUN_CONCURRENCY: 8,
        },
      });
      scheduler = timed.app.get(WakeUpWorker);
      timedWorld = new World(timed);
      fixture = await timedWorld.workspace();
      owner = await timedWorld.member(fixture.workspace, 'user');
      agentSIds = await timedWorld.globalAgents(fixture);
    });
    afterAll(() => timed.close());

    it('fires more than a batch in one pass, and cancels in the same pass those that can never fire', async () => {
      const fireAt = at(60_000);
      const fine = await Promise.all(
        Array.from({ length: BATCH_SIZE + 5 }, () => scheduled(owner, agentSIds.assistant, fireAt)),
      );
      const agentGone = await scheduled(owner, agentSIds.summarizer, fireAt);
      const leaver = await timedWorld.member(fixture.workspace, 'user');
      const ownerGone = await scheduled(leaver, agentSIds.assistant, fireAt);
      await timed.dataSource.query("UPDATE agent_configurations SET status = 'archived' WHERE s_id = $1", [
        agentSIds.summarizer,
      ]);
      await timed.dataSource.query('DELETE FROM memberships WHERE user_id = $1', [leaver.user.id]);

      clock.set('2027-03-01T09:01:01Z');
      await scheduler.runDue();

      for (const { cId, wakeUpSId } of fine) {
        expect(await state(wakeUpSId)).toMatchObject({ status: 'fired', fire_count: 1, next_fire_at: null });
        expect(await systemMessages(cId)).toBe(1);
        expect(await announced(cId)).toEqual(['scheduled', 'fired']);
      }
      // The agent is gone: cancelled and announced, no message.
      expect(await state(agentGone.wakeUpSId)).toMatchObject({ status: 'cancelled', fire_count: 0 });
      expect(await systemMessages(agentGone.cId)).toBe(0);
      expect(await announced(agentGone.cId)).toEqual(['scheduled', 'cancelled']);
      // The owner left: cancelled, without an event in a conversation nobody can act for.
      expect(await state(ownerGone.wakeUpSId)).toMatchObject({ status: 'cancelled', fire_count: 0 });
      expect(await systemMessages(ownerGone.cId)).toBe(0);

      // Nothing is left due: another pass changes nothing.
      await scheduler.runDue();
      for (const { cId } of fine.slice(0, 3)) expect(await systemMessages(cId)).toBe(1);
    });

    it('fires the others of its batch while a firing waits on a conversation another transaction holds', async () => {
      const fireAt = at(1_800_000);
      const [free1, free2, held] = await Promise.all(
        [0, 1, 2].map(() => scheduled(owner, agentSIds.assistant, fireAt)),
      );
      const holder = new Client({ connectionString: timed.config.databaseUrl! });
      await holder.connect();
      try {
        const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
        await holder.query('BEGIN');
        await holder.query('SELECT id FROM conversations WHERE s_id = $1 FOR NO KEY UPDATE', [held.cId]);

        clock.set(new Date(fireAt + 1_000).toISOString());
        const pass = scheduler.runDue();
        await until(
          async () => ({
            fired: [(await state(free1.wakeUpSId)).status, (await state(free2.wakeUpSId)).status],
            waiting: (
              await timed.dataSource.query<{ n: number }[]>(
                'SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
                [holderPid],
              )
            )[0].n,
          }),
          ({ fired, waiting }) => fired.every((status) => status === 'fired') && waiting === 1,
        );
        expect(await state(held.wakeUpSId)).toMatchObject({ status: 'scheduled', fire_count: 0 });
        expect(await systemMessages(held.cId)).toBe(0);

        await holder.query('ROLLBACK');
        await pass;
      } finally {
        await holder.end();
      }
      for (const { cId, wakeUpSId } of [free1, free2, held]) {
        expect(await state(wakeUpSId)).toMatchObject({ status: 'fired', fire_count: 1, attempts: 0 });
        expect(await systemMessages(cId)).toBe(1);
        expect(await announced(cId)).toEqual(['scheduled', 'fired']);
      }
    });

    it('lets the others of its batch fire when one firing fails, and retries that one with backoff until it expires', async () => {
      const fireAt = at(3_600_000);
      const others = await Promise.all([0, 1, 2].map(() => scheduled(owner, agentSIds.assistant, fireAt)));
      const broken = await scheduled(owner, agentSIds.assistant, fireAt, true);
      // Its next rank is taken by its first message: writing the system message fails.
      await timed.dataSource.query('UPDATE conversations SET next_rank = 0 WHERE s_id = $1', [broken.cId]);

      let now = fireAt + 1_000;
      clock.set(new Date(now).toISOString());
      await scheduler.runDue();
      for (const { cId, wakeUpSId } of others) {
        expect(await state(wakeUpSId)).toMatchObject({ status: 'fired', fire_count: 1 });
        expect(await systemMessages(cId)).toBe(1);
      }
      const attempts: { status: string; attempts: number; retryInMs: number | null }[] = [];
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const current = await state(broken.wakeUpSId);
        attempts.push({
          status: current.status,
          attempts: current.attempts,
          retryInMs: current.next_fire_at && current.next_fire_at.getTime() - now,
        });
        if (!current.next_fire_at) break;
        now = current.next_fire_at.getTime();
        clock.set(new Date(now).toISOString());
        await scheduler.runDue();
      }
      expect(attempts).toEqual([
        { status: 'scheduled', attempts: 1, retryInMs: 2_000 },
        { status: 'scheduled', attempts: 2, retryInMs: 4_000 },
        { status: 'scheduled', attempts: 3, retryInMs: 8_000 },
        { status: 'scheduled', attempts: 4, retryInMs: 16_000 },
        { status: 'expired', attempts: 5, retryInMs: null },
      ]);
      expect(await systemMessages(broken.cId)).toBe(0);
      expect(await state(broken.wakeUpSId)).toMatchObject({ fire_count: 0, next_fire_at: null });
      // Scheduled, then expired: the expiry reaches the conversation's stream like any change.
      expect(await announced(broken.cId)).toEqual(['scheduled', 'expired']);
    });
  });

  it('fires each of 1,000 wake-ups due at once exactly once across three processes', async () => {
    const service = t.app.get(WakeUpsService);
    const conversationsService = t.app.get(ConversationsService);
    const caller = await world.caller(a.workspace, member.user);
    const others = await Promise.all(
      [0, 1].map(() =>
        createTestApp({
          databaseUrl: t.config.databaseUrl!,
          env: {
            RUN_HEARTBEAT_MS: 1000,
            RUN_STALE_AFTER_MS: 60_000,
            LOCAL_MODEL_CHUNK_DELAY_MS: 0,
            RUN_CONCURRENCY: 8,
          },
        }),
      ),
    );
    try {
      const fireAt = Date.now() + 3_600_000;
      const ids: string[] = [];
      for (let batch = 0; batch < 1_000; batch += 25) {
        ids.push(
          ...(await Promise.all(
            Array.from({ length: 25 }, async () => {
              const { conversation } = await conversationsService.create(caller, { title: 'Batch' });
              await service.create(caller, conversation.sId, {
                agentConfigurationId: assistant,
                scheduleConfig: { type: 'one_shot', fireAt },
                reason: 'Batch wake-up',
              });
              return conversation.sId;
            }),
          )),
        );
      }
      // All due at the same instant, a moment from now: every process's scheduler sees them together.
      await t.dataSource.query(
        "UPDATE wakeups SET next_fire_at = now() + interval '1 second' WHERE reason = 'Batch wake-up'",
      );
      const fired = await until(
        async () =>
          (await t.dataSource.query<{ status: string; n: number }[]>(
            "SELECT status, count(*)::int AS n FROM wakeups WHERE reason = 'Batch wake-up' GROUP BY status",
          )) as { status: string; n: number }[],
        (rows) => rows.length === 1 && rows[0].status === 'fired',
        120_000,
      );
      expect(fired).toEqual([{ status: 'fired', n: 1_000 }]);
      const perConversation = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(m.id)::int AS n FROM conversations c
         LEFT JOIN messages m ON m.conversation_id = c.id AND m.type = 'user_message' AND m.context->>'origin' = 'wakeup'
         WHERE c.s_id = ANY($1) GROUP BY c.id`,
        [ids],
      );
      expect(perConversation).toHaveLength(1_000);
      expect(perConversation.every((row) => row.n === 1)).toBe(true);
    } finally {
      await Promise.all(others.map((app) => app.close()));
    }
  });
});

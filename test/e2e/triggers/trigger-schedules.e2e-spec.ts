import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Clock } from 'src/platform/clock/clock';
import { TriggerWorker } from 'src/modules/triggers/workers/trigger.worker';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

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

interface FiringRow {
  due_at: Date;
  status: string;
  error: string | null;
  conversation: string | null;
}

describe('triggers: schedules firing on a controlled clock', () => {
  // Before the spring change of 2026 in Paris (29 March, 02:00 CET becomes 03:00 CEST).
  const clock = new FakeClock(new Date('2026-03-27T12:00:00Z'));
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let builder: Actor;
  let scheduler: TriggerWorker;

  const create = async (actor: Actor, aId: string, trigger: Record<string, unknown>) => {
    const res = await api(t, actor)
      .post(paths.triggers(actor.workspace.sId, aId))
      .send({
        triggers: [{ name: 'Digest', kind: 'schedule', customPrompt: 'Summarise the day.', ...trigger }],
      })
      .expect(200);
    return res.body.triggers[0] as { sId: string; nextFireAt: number | null; status: string };
  };
  const firings = (tId: string) =>
    t.dataSource.query<FiringRow[]>(
      `SELECT f.due_at, f.status, f.error, c.s_id AS conversation FROM trigger_firings f
       JOIN triggers t ON t.id = f.trigger_id LEFT JOIN conversations c ON c.id = f.conversation_id
       WHERE t.s_id = $1 ORDER BY f.due_at`,
      [tId],
    );
  const fireAt = async (iso: string) => {
    clock.set(iso);
    await scheduler.runDue();
    // A pass the worker's own timer had under way may have looked before the clock moved.
    await scheduler.runDue();
  };

  beforeAll(async () => {
    t = await createTestApp({
      overrides: [{ provide: Clock, useValue: clock }],
      env: { RUN_HEARTBEAT_MS: 1000, RUN_STALE_AFTER_MS: 60_000, LOCAL_MODEL_CHUNK_DELAY_MS: 0 },
    });
    scheduler = t.app.get(TriggerWorker);
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    builder = await world.member(a.workspace, 'builder');
  });
  afterAll(() => t.close());

  it("fires at 09:00 Paris time on both sides of the spring change, once each, as the editor's conversation", async () => {
    const agent = (await world.agent(builder)).sId;
    const trigger = await create(builder, agent, {
      configuration: { cron: '0 9 * * *', timezone: 'Europe/Paris' },
    });
    expect(new Date(trigger.nextFireAt!).toISOString()).toBe('2026-03-28T08:00:00.000Z');

    await fireAt('2026-03-28T07:59:59Z');
    expect(await firings(trigger.sId)).toEqual([]);
    await fireAt('2026-03-28T08:00:00Z');
    // A second pass at the same time finds nothing due.
    await scheduler.runDue();
    // 09:00 CEST on the 29th is 07:00 UTC: an hour earlier in UTC, the same on the wall clock.
    await fireAt('2026-03-29T06:59:00Z');
    await fireAt('2026-03-29T07:00:00Z');
    const fired = await firings(trigger.sId);
    expect(fired.map((row) => [row.due_at.toISOString(), row.status])).toEqual([
      ['2026-03-28T08:00:00.000Z', 'succeeded'],
      ['2026-03-29T07:00:00.000Z', 'succeeded'],
    ]);
    const listed = await api(t, builder).get(paths.triggers(a.workspace.sId, agent)).expect(200);
    expect(new Date(listed.body.triggers[0].nextFireAt as number).toISOString()).toBe(
      '2026-03-30T07:00:00.000Z',
    );

    // The conversations carry the trigger, are the editor's, and the agent answers the prompt.
    const cId = fired[0].conversation!;
    const conversation = await api(t, builder).get(paths.conversation(a.workspace.sId, cId)).expect(200);
    expect(conversation.body.conversation).toMatchObject({
      sId: cId,
      triggerId: trigger.sId,
      title: 'Digest',
    });
    const messages: ListedMessage[] = await world.settled(builder, cId);
    const first = messages.find((m) => m.type === 'user_message') as unknown as {
      content: string;
      user: { sId: string } | null;
      mentions: { configurationId: string }[];
      context: { origin: string };
    };
    expect(first).toMatchObject({
      content: 'Summarise the day.',
      mentions: [{ configurationId: agent }],
      context: { origin: 'triggered' },
    });
    expect(first.user?.sId).toBe(builder.user.sId);
    expect(messages.filter((m) => m.type === 'agent_message').map((m) => m.status)).toEqual(['succeeded']);

    const mine = await api(t, builder).get(paths.conversations(a.workspace.sId)).expect(200);
    const mineIds = (mine.body.conversations as { sId: string }[]).map((c) => c.sId);
    expect(mineIds).toEqual(expect.arrayContaining(fired.map((row) => row.conversation)));

    const opened = await api(t, builder)
      .get(paths.triggerConversations(a.workspace.sId, agent, trigger.sId))
      .expect(200);
    expect(opened.body).toMatchApiSchema('TriggerConversationsResponse');
    expect(opened.body.conversations.map((c: { sId: string }) => c.sId)).toEqual(
      fired.map((row) => row.conversation).reverse(),
    );
    // Another workspace's key sees neither the agent nor the trigger.
    await api(t, b.admin)
      .get(paths.triggerConversations(b.workspace.sId, agent, trigger.sId))
      .expect(404);
    await api(t, b.admin)
      .get(paths.triggerConversations(a.workspace.sId, agent, trigger.sId))
      .expect(401);
  });

  it('fires at 09:00 Paris time after the autumn change too', async () => {
    clock.set('2026-10-24T12:00:00Z');
    const agent = (await world.agent(builder)).sId;
    const trigger = await create(builder, agent, {
      configuration: { cron: '0 9 * * *', timezone: 'Europe/Paris' },
    });
    await fireAt('2026-10-25T07:00:00Z'); // 08:00 CET: not yet
    expect(await firings(trigger.sId)).toEqual([]);
    await fireAt('2026-10-25T08:00:00Z'); // 09:00 CET
    expect((await firings(trigger.sId)).map((row) => row.due_at.toISOString())).toEqual([
      '2026-10-25T08:00:00.000Z',
    ]);
  });

  it('never fires a disabled or deleted trigger, and disables the triggers of an archived agent', async () => {
    clock.set('2026-11-02T12:00:00Z');
    const agent = (await world.agent(builder)).sId;
    const schedule = { configuration: { cron: '0 13 * * *', timezone: 'UTC' } };
    const disabled = await create(builder, agent, { ...schedule, status: 'disabled' });
    const deleted = await create(builder, agent, schedule);
    await api(t, builder)
      .delete(paths.triggers(a.workspace.sId, agent))
      .send({ triggerIds: [deleted.sId] })
      .expect(204);

    const archivedAgent = (await world.agent(builder)).sId;
    const ofArchived = await create(builder, archivedAgent, schedule);
    await api(t, builder).delete(paths.agent(a.workspace.sId, archivedAgent)).expect(200);
    const listed = await api(t, builder).get(paths.triggers(a.workspace.sId, archivedAgent)).expect(200);
    expect(listed.body.triggers).toEqual([
      expect.objectContaining({ sId: ofArchived.sId, status: 'disabled', nextFireAt: null }),
    ]);

    await fireAt('2026-11-02T13:00:00Z');
    const fired = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM trigger_firings f JOIN triggers t ON t.id = f.trigger_id WHERE t.s_id = ANY($1)',
      [[disabled.sId, ofArchived.sId]],
    );
    expect(fired[0].n).toBe(0);
    const conversations = await t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM conversations WHERE trigger_id = ANY($1)',
      [[disabled.sId, deleted.sId, ofArchived.sId]],
    );
    expect(conversations[0].n).toBe(0);
  });

  it('records a failed firing when the editor can no longer read the agent, and opens nothing', async () => {
    clock.set('2026-11-03T12:00:00Z');
    const reader = await world.member(a.workspace, 'user');
    const space = await world.space(a.admin, { members: [builder, reader] });
    const server = await world.toolServer(a.admin, {
      name: 'Vault',
      url: 'https://vault.example.com',
      spaceIds: [space.sId],
    });
    const agent = (
      await world.agent(builder, {
        name: 'vault-keeper',
        actions: [{ name: 'vault', mcpServerName: server.name }],
      })
    ).sId;
    const trigger = await create(builder, agent, { configuration: { cron: '0 13 * * *', timezone: 'UTC' } });
    await api(t, a.admin)
      .delete(paths.spaceMember(a.workspace.sId, space.sId, builder.user.sId))
      .expect(200);

    await fireAt('2026-11-03T13:00:00Z');
    expect(await firings(trigger.sId)).toEqual([
      {
        due_at: new Date('2026-11-03T13:00:00Z'),
        status: 'failed',
        error: `The trigger's editor can no longer read agent ${agent}.`,
        conversation: null,
      },
    ]);
    // Not disabled: the editor may be given the space back; the schedule moves on.
    const [row] = await t.dataSource.query<{ status: string; next_fire_at: Date }[]>(
      'SELECT status, next_fire_at FROM triggers WHERE s_id = $1',
      [trigger.sId],
    );
    expect(row).toEqual({ status: 'enabled', next_fire_at: new Date('2026-11-04T13:00:00Z') });

    // The failed firing is visible to readers of the agent (still in its space), with its reason;
    // no longer to the editor, who cannot read the agent.
    const firingsPath = paths.triggerFirings(a.workspace.sId, agent, trigger.sId);
    await api(t, builder).get(firingsPath).expect(404);
    const res = await api(t, reader).get(firingsPath).expect(200);
    expect(res.body).toMatchApiSchema('TriggerFiringsResponse');
    expect(res.body).toEqual({
      firings: [
        {
          id: expect.any(Number),
          firedFor: Date.parse('2026-11-03T13:00:00Z'),
          status: 'failed',
          error: `The trigger's editor can no longer read agent ${agent}.`,
          conversationId: null,
          created: expect.any(Number),
        },
      ],
      nextCursor: null,
    });
  });

  it('fires a due batch together; a firing that fails to write fails alone, recorded, and moves on', async () => {
    clock.set('2026-11-05T12:00:00Z');
    const agent = (await world.agent(builder)).sId;
    const schedule = { configuration: { cron: '0 13 * * *', timezone: 'UTC' } };
    const good = [await create(builder, agent, schedule), await create(builder, agent, schedule)];
    const bad = await create(builder, agent, schedule);
    // Opening the bad trigger's conversation fails in PostgreSQL, as a write failure would.
    await t.dataSource.query(`
      CREATE FUNCTION refuse_conversation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'conversation refused by the test'; END $$`);
    await t.dataSource.query(`
      CREATE TRIGGER refuse_conversation BEFORE INSERT ON conversations FOR EACH ROW
      WHEN (NEW.trigger_id = '${bad.sId}') EXECUTE FUNCTION refuse_conversation()`);
    try {
      await fireAt('2026-11-05T13:00:00Z');
    } finally {
      await t.dataSource.query('DROP TRIGGER refuse_conversation ON conversations');
      await t.dataSource.query('DROP FUNCTION refuse_conversation()');
    }

    for (const trigger of good) {
      const [fired] = await firings(trigger.sId);
      expect(fired).toMatchObject({ status: 'succeeded', error: null, conversation: expect.any(String) });
    }
    expect(await firings(bad.sId)).toEqual([
      {
        due_at: new Date('2026-11-05T13:00:00Z'),
        status: 'failed',
        error: 'conversation refused by the test',
        conversation: null,
      },
    ]);
    const rows = await t.dataSource.query<{ s_id: string; status: string; next_fire_at: Date }[]>(
      'SELECT s_id, status, next_fire_at FROM triggers WHERE s_id = ANY($1)',
      [[...good, bad].map((trigger) => trigger.sId)],
    );
    expect(rows.map(({ status, next_fire_at }) => ({ status, next_fire_at }))).toEqual(
      Array.from({ length: 3 }, () => ({
        status: 'enabled',
        next_fire_at: new Date('2026-11-06T13:00:00Z'),
      })),
    );
    // The next due time fires the bad trigger like any other.
    await fireAt('2026-11-06T13:00:00Z');
    expect((await firings(bad.sId)).map((row) => row.status)).toEqual(['failed', 'succeeded']);

    // Its firings, newest first, a page at a time: the failed one keeps its reason.
    const firingsPath = paths.triggerFirings(a.workspace.sId, agent, bad.sId);
    const first = await api(t, builder).get(firingsPath).query({ limit: 1 }).expect(200);
    expect(first.body).toMatchApiSchema('TriggerFiringsResponse');
    const [succeeded] = await firings(bad.sId).then((rows) =>
      rows.filter((row) => row.status === 'succeeded'),
    );
    expect(first.body.firings).toEqual([
      expect.objectContaining({
        firedFor: Date.parse('2026-11-06T13:00:00Z'),
        status: 'succeeded',
        error: null,
        conversationId: succeeded.conversation,
      }),
    ]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await api(t, builder)
      .get(firingsPath)
      .query({ limit: 1, cursor: first.body.nextCursor as string })
      .expect(200);
    expect(second.body).toEqual({
      firings: [
        expect.objectContaining({
          firedFor: Date.parse('2026-11-05T13:00:00Z'),
          status: 'failed',
          error: 'conversation refused by the test',
          conversationId: null,
        }),
      ],
      nextCursor: null,
    });
    // Any reader of the agent sees them, not only its editors.
    const reader = await world.member(a.workspace, 'user');
    const read = await api(t, reader).get(firingsPath).expect(200);
    expect(read.body.firings.map((f: { status: string }) => f.status)).toEqual(['succeeded', 'failed']);
    for (const query of [{ cursor: 'abc' }, { limit: 0 }, { limit: 101 }]) {
      const refused = await api(t, builder).get(firingsPath).query(query).expect(400);
      expect(refused.body.error.type).toBe('invalid_request_error');
    }
    // Tenant isolation: another workspace's key finds neither the agent nor the trigger.
    await api(t, b.admin)
      .get(paths.triggerFirings(b.workspace.sId, agent, bad.sId))
      .expect(404);
    await api(t, b.admin).get(firingsPath).expect(401);
    // A trigger named under another agent of the workspace is not found.
    const other = (await world.agent(builder)).sId;
    await api(t, builder)
      .get(paths.triggerFirings(a.workspace.sId, other, bad.sId))
      .expect(404);
  });
});

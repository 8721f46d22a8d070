import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const digest = (extra: Record<string, unknown> = {}) => ({
  name: 'Morning digest',
  kind: 'schedule',
  customPrompt: 'Summarise the open incidents.',
  configuration: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
  ...extra,
});

describe('triggers: the CRUD routes', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let builder: Actor;
  let reader: Actor;
  let wId: string;
  let agent: string;

  const triggers = (actor: Actor, aId = agent) => api(t, actor).get(paths.triggers(wId, aId));
  const create = (actor: Actor, body: unknown, aId = agent) =>
    api(t, actor)
      .post(paths.triggers(wId, aId))
      .send(body as object);
  const rowCount = async () =>
    (await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM triggers'))[0].n;

  beforeAll(async () => {
    t = await createTestApp({ env: { TRIGGERS_MAX_PER_AGENT: 3 } });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    builder = await world.member(a.workspace, 'builder');
    reader = await world.member(a.workspace, 'user');
    agent = (await world.agent(builder)).sId;
  });
  afterAll(() => t.close());

  it("creates a batch for the agent's editor, who becomes its editor; readers list it", async () => {
    const res = await create(builder, {
      triggers: [
        digest(),
        digest({
          name: 'Fortnightly review',
          configuration: {
            type: 'interval',
            intervalDays: 14,
            dayOfWeek: 1,
            hour: 10,
            minute: 30,
            timezone: 'UTC',
          },
          status: 'disabled',
        }),
      ],
    }).expect(200);
    expect(res.body).toMatchApiSchema('TriggersResponse');
    expect(res.body.triggers).toEqual([
      expect.objectContaining({
        sId: expect.stringMatching(/^trg_/),
        name: 'Morning digest',
        agentConfigurationId: agent,
        editor: builder.user.sId,
        editorEmail: builder.user.email,
        isEditor: true,
        status: 'enabled',
        origin: 'user',
        kind: 'schedule',
        configuration: { type: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
        webhookSourceViewSId: null,
        nextFireAt: expect.any(Number),
      }),
      expect.objectContaining({
        name: 'Fortnightly review',
        status: 'disabled',
        configuration: {
          type: 'interval',
          intervalDays: 14,
          dayOfWeek: 1,
          hour: 10,
          minute: 30,
          timezone: 'UTC',
        },
        nextFireAt: null,
      }),
    ]);
    // 09:00 in Paris on a weekday: 07:00 or 08:00 UTC.
    const next = new Date(res.body.triggers[0].nextFireAt as number);
    expect([7, 8]).toContain(next.getUTCHours());
    expect([1, 2, 3, 4, 5]).toContain(next.getUTCDay());

    const listed = await triggers(reader).expect(200);
    expect(listed.body).toMatchApiSchema('TriggersResponse');
    expect(listed.body.triggers.map((x: { sId: string; isEditor: boolean }) => [x.sId, x.isEditor])).toEqual(
      res.body.triggers.map((x: { sId: string }) => [x.sId, false]),
    );
  });

  it('refuses writes from a reader of the agent (403) and hides the agent from another workspace (404)', async () => {
    const before = await rowCount();
    const refused = await create(reader, { triggers: [digest()] }).expect(403);
    expect(refused.body.error.type).toBe('workspace_auth_error');
    const foreign = await api(t, b.admin).get(paths.triggers(b.workspace.sId, agent)).expect(404);
    expect(foreign.body.error.type).toBe('agent_configuration_not_found');
    await api(t, b.admin)
      .post(paths.triggers(b.workspace.sId, agent))
      .send({ triggers: [digest()] })
      .expect(404);
    expect(await rowCount()).toBe(before);
  });

  it.each([
    ['an invalid cron', { cron: '0 25 * * *', timezone: 'UTC' }, /triggers\[1\]\.configuration\.cron/],
    [
      'an unknown time zone',
      { cron: '0 9 * * *', timezone: 'Europe/Atlantis' },
      /timezone: "Europe\/Atlantis" is not an IANA/,
    ],
    ['a schedule every minute', { cron: '* * * * *', timezone: 'UTC' }, /at least 5 minutes apart/],
    ['four fields', { cron: '0 9 * *', timezone: 'UTC' }, /must have 5 fields/],
    // cron-parser draws H again at every reading: the times it fires would move.
    [
      'a hashed cron',
      { cron: 'H H * * *', timezone: 'UTC' },
      /^triggers\[1\]\.configuration\.cron: H \(a hashed value\) is not accepted/,
    ],
    [
      'a key of another kind',
      { cron: '0 9 * * *', timezone: 'UTC', includePayload: true },
      /includePayload is not a field of a cron schedule/,
    ],
    [
      'an interval with a weekday every 10 days',
      { type: 'interval', intervalDays: 10, dayOfWeek: 1, hour: 9, minute: 0, timezone: 'UTC' },
      /whole number of weeks/,
    ],
  ])(
    'refuses %s with a 400 naming the field, and creates nothing of the batch',
    async (_, configuration, message) => {
      const before = await rowCount();
      const res = await create(builder, {
        triggers: [digest({ name: 'Fine' }), digest({ configuration })],
      }).expect(400);
      expect(res.body).toEqual({
        error: { type: 'invalid_request_error', message: expect.stringMatching(message) },
      });
      expect(await rowCount()).toBe(before);
    },
  );

  it('refuses unknown keys at the top of a trigger', async () => {
    const res = await create(builder, { triggers: [digest({ colour: 'blue' })] }).expect(400);
    expect(res.body.error.message).toMatch(/colour/);
  });

  it('bounds the triggers of one agent (TRIGGERS_MAX_PER_AGENT) and says how many more fit', async () => {
    const other = (await world.agent(builder)).sId;
    await create(builder, { triggers: [digest(), digest()] }, other).expect(200);
    const res = await create(builder, { triggers: [digest(), digest()] }, other).expect(400);
    expect(res.body.error.message).toMatch(
      /at most 3 triggers set up on these routes .*; this one has 2, so at most 1 more/,
    );
    expect((await triggers(builder, other).expect(200)).body.triggers).toHaveLength(2);
  });

  // A trigger's name becomes the title of each conversation it opens, where these are refused.
  it('refuses names with bidirectional or invisible characters, on create and update, and keeps emoji', async () => {
    const aId = (await world.agent(builder)).sId;
    const before = await rowCount();
    for (const [name, message] of [
      [
        'Digest \u202egpj.exe',
        'triggers[1].name: must not contain U+202E, a bidirectional control character.',
      ],
      ['Digest\u200b', 'triggers[1].name: must not contain U+200B, an invisible character.'],
      ['Digest\u2066', 'triggers[1].name: must not contain U+2066, a bidirectional control character.'],
      ['Two\nlines', 'triggers[1].name: must not contain U+000A, a control character or line break.'],
      ['   ', 'triggers[1].name: must be 1 to 255 characters.'],
    ]) {
      const res = await create(
        builder,
        { triggers: [digest({ name: 'Fine' }), digest({ name })] },
        aId,
      ).expect(400);
      expect(res.body).toEqual({ error: { type: 'invalid_request_error', message } });
    }
    expect(await rowCount()).toBe(before);

    const created = await create(
      builder,
      { triggers: [digest({ name: '  👩\u200d💻 Dev digest ' })] },
      aId,
    ).expect(200);
    const [trigger] = created.body.triggers as { sId: string; name: string }[];
    expect(trigger.name).toBe('👩\u200d💻 Dev digest');
    const refused = await api(t, builder)
      .patch(paths.triggers(wId, aId))
      .send({ triggers: [{ ...digest({ name: 'Renamed\u200f' }), sId: trigger.sId }] })
      .expect(400);
    expect(refused.body.error.message).toBe(
      'triggers[0].name: must not contain U+200F, a bidirectional control character.',
    );
    expect((await triggers(builder, aId).expect(200)).body.triggers[0].name).toBe('👩\u200d💻 Dev digest');
  });

  it('updates and deletes in batches, all or nothing; an admin may write too', async () => {
    const created = (
      await create(
        builder,
        { triggers: [digest({ name: 'To change' })] },
        (await world.agent(builder)).sId,
      ).expect(200)
    ).body;
    const aId = created.triggers[0].agentConfigurationId as string;
    const tId = created.triggers[0].sId as string;
    const missing = await api(t, a.admin)
      .patch(paths.triggers(wId, aId))
      .send({
        triggers: [
          { ...digest({ name: 'Changed' }), sId: tId },
          { ...digest(), sId: 'trg_nope' },
        ],
      })
      .expect(404);
    expect(missing.body.error.type).toBe('trigger_not_found');
    expect((await triggers(builder, aId).expect(200)).body.triggers[0].name).toBe('To change');

    const patched = await api(t, a.admin)
      .patch(paths.triggers(wId, aId))
      .send({ triggers: [{ ...digest({ name: 'Changed', status: 'disabled' }), sId: tId }] })
      .expect(200);
    expect(patched.body).toMatchApiSchema('TriggersResponse');
    expect(patched.body.triggers[0]).toMatchObject({
      name: 'Changed',
      status: 'disabled',
      nextFireAt: null,
      editor: a.admin.user.sId,
    });

    await api(t, reader)
      .delete(paths.triggers(wId, aId))
      .send({ triggerIds: [tId] })
      .expect(403);
    await api(t, builder)
      .delete(paths.triggers(wId, aId))
      .send({ triggerIds: [tId, 'trg_nope'] })
      .expect(404);
    expect((await triggers(builder, aId).expect(200)).body.triggers).toHaveLength(1);
    await api(t, builder)
      .delete(paths.triggers(wId, aId))
      .send({ triggerIds: [tId] })
      .expect(204);
    expect((await triggers(builder, aId).expect(200)).body.triggers).toEqual([]);
  });
});

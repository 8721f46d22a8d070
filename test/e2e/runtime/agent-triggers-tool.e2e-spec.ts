import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Clock } from 'src/platform/clock/clock';
import { TriggerWorker } from 'src/modules/triggers/workers/trigger.worker';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
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

interface Action {
  toolName: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

interface ListedTrigger {
  sId: string;
  name: string;
  status: string;
  origin: string;
  editor: string;
  nextFireAt: number | null;
}

const tool = (name: string, args: Record<string, unknown>) =>
  `/tool triggers__${name} ${JSON.stringify(args)}`;
const daily = (extra: Record<string, unknown> = {}) => ({
  name: 'Daily digest',
  prompt: 'Summarise the day.',
  cron: '0 9 * * *',
  timezone: 'Europe/Paris',
  ...extra,
});

describe('triggers: an agent schedules itself through its triggers tools', () => {
  const clock = new FakeClock(new Date('2026-06-01T12:00:00Z'));
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let scheduler: string;

  const toolAgent = async () =>
    (
      await world.agent(a.admin, {
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'triggers', mcpServerName: 'triggers' }],
      })
    ).sId;
  const listed = async (agent: string, actor: Actor = member) => {
    const res = await api(t, actor).get(paths.triggers(wId, agent)).expect(200);
    expect(res.body).toMatchApiSchema('TriggersResponse');
    return res.body.triggers as ListedTrigger[];
  };
  /** Asks `agent` with `content` in a new conversation; the agent's message once it ended. */
  const ask = async (agent: string, content: string, actor: Actor = member) => {
    const { sId } = await world.conversation(actor, { message: content, mentions: [agent] });
    const messages = await world.settled(actor, sId);
    return { cId: sId, message: messages.find((m) => m.type === 'agent_message') as AgentMessage };
  };
  const byRoute = async (agent: string, count: number) => {
    const res = await api(t, a.admin)
      .post(paths.triggers(wId, agent))
      .send({
        triggers: Array.from({ length: count }, (_, i) => ({
          name: `Set by the admin ${i}`,
          kind: 'schedule',
          customPrompt: 'Check the queue.',
          configuration: { cron: '0 8 * * *', timezone: 'UTC' },
        })),
      })
      .expect(200);
    return res.body.triggers as ListedTrigger[];
  };

  beforeAll(async () => {
    t = await createTestApp({
      overrides: [{ provide: Clock, useValue: clock }],
      env: {
        RUN_HEARTBEAT_MS: 1000,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        TRIGGERS_MAX_PER_AGENT: 4,
        TRIGGERS_MAX_PER_CONVERSATION: 2,
        TRIGGERS_MAX_FROM_TOOLS_PER_AGENT: 5,
        TRIGGERS_MAX_FROM_TOOLS_PER_MEMBER: 3,
      },
    });
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    scheduler = await toolAgent();
  });
  afterAll(() => t.close());

  it("creates a schedule of the calling agent, recorded as the agent's with the member as editor, which fires", async () => {
    const { message } = await ask(scheduler, tool('create_schedule', daily()));
    expect(message.status).toBe('succeeded');
    expect(message.actions).toEqual([
      expect.objectContaining({ toolName: 'create_schedule', status: 'succeeded' }),
    ]);
    expect(message.actions[0].output![0].text).toMatch(
      /^Created schedule trg_\w+ "Daily digest": enabled, on "0 9 \* \* \*" \(Europe\/Paris\), next at 2026-06-02T07:00:00.000Z/,
    );

    const [created] = await listed(scheduler);
    expect(created).toMatchObject({
      name: 'Daily digest',
      agentConfigurationId: scheduler,
      editor: member.user.sId,
      isEditor: true,
      customPrompt: 'Summarise the day.',
      status: 'enabled',
      origin: 'agent',
      kind: 'schedule',
      configuration: { type: 'cron', cron: '0 9 * * *', timezone: 'Europe/Paris' },
      nextFireAt: Date.parse('2026-06-02T07:00:00Z'),
    });

    clock.set('2026-06-02T07:00:01Z');
    await t.app.get(TriggerWorker).runDue();
    const conversations = await until(
      async () =>
        (
          await api(t, member)
            .get(paths.triggerConversations(wId, scheduler, created.sId))
            .expect(200)
        ).body.conversations as { sId: string; triggerId: string }[],
      (found) => found.length === 1,
    );
    expect(conversations[0].triggerId).toBe(created.sId);
    const fired = await world.messages(member, conversations[0].sId);
    expect(fired[0]).toMatchObject({ type: 'user_message', content: 'Summarise the day.' });
  });

  it('lists the agent schedules and disables one of them through the tools', async () => {
    const [created] = await listed(scheduler);
    const listing = await ask(scheduler, tool('list_schedules', {}));
    expect(listing.message.actions[0]).toMatchObject({ toolName: 'list_schedules', status: 'succeeded' });
    expect(listing.message.actions[0].output![0].text).toContain(`${created.sId} "Daily digest": enabled`);
    expect(listing.message.actions[0].output![0].text).toContain('(by an agent)');

    const disabling = await ask(scheduler, tool('disable_schedule', { scheduleId: created.sId }));
    expect(disabling.message.actions[0]).toMatchObject({ toolName: 'disable_schedule', status: 'succeeded' });
    expect(disabling.message.content).toContain(`Schedule ${created.sId} is disabled`);
    expect((await listed(scheduler))[0]).toMatchObject({
      sId: created.sId,
      status: 'disabled',
      nextFireAt: null,
    });
  });

  it('refuses a schedule that fires too often or has an unknown time zone, says what to fix, and creates nothing', async () => {
    const before = await listed(scheduler);
    const { message } = await ask(
      scheduler,
      [
        tool('create_schedule', daily({ cron: '*/2 * * * *' })),
        tool('create_schedule', daily({ timezone: 'Mars/Olympus' })),
        tool('create_schedule', daily({ cron: 'every morning' })),
        tool('create_schedule', daily({ cron: 'H * * * *' })),
      ].join('\n'),
    );
    expect(message.status).toBe('succeeded');
    expect(message.actions.map((action) => action.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    const [frequent, zone, cron, hashed] = message.actions.map((action) => action.output![0].text);
    expect(frequent).toMatch(/^cron: .*5 minutes.* Nothing was changed\.$/);
    expect(zone).toMatch(/^timezone: .*Mars\/Olympus/);
    expect(cron).toMatch(/^cron: /);
    expect(hashed).toMatch(/^cron: H \(a hashed value\) is not accepted.* Nothing was changed\.$/);
    // The model is told: its answer holds the refusal.
    expect(message.content).toContain(frequent);
    expect(await listed(scheduler)).toEqual(before);
  });

  it('refuses a name with bidirectional or invisible characters, which would become conversation titles', async () => {
    const agent = await toolAgent();
    const { message } = await ask(
      agent,
      [
        tool('create_schedule', daily({ name: 'Digest \u202egpj.exe' })),
        tool('create_schedule', daily({ name: 'Digest\u200b' })),
      ].join('\n'),
    );
    expect(message.actions.map((action) => action.output![0].text)).toEqual([
      'name: must not contain U+202E, a bidirectional control character. Nothing was changed.',
      'name: must not contain U+200B, an invisible character. Nothing was changed.',
    ]);
    expect(await listed(agent)).toEqual([]);
  });

  it('refuses a third schedule from one conversation', async () => {
    const agent = await toolAgent();
    const { message } = await ask(
      agent,
      [
        tool('create_schedule', daily({ name: 'One' })),
        tool('create_schedule', daily({ name: 'Two' })),
        tool('create_schedule', daily({ name: 'Three' })),
      ].join('\n'),
    );
    const statuses = message.actions.map((action) => action.status).sort();
    expect(statuses).toEqual(['failed', 'succeeded', 'succeeded']);
    const refused = message.actions.find((action) => action.status === 'failed')!;
    expect(refused.output![0].text).toMatch(
      /^agents may create at most 2 schedules from one conversation, and 2 were created from this one/,
    );
    expect((await listed(agent)).map((trigger) => trigger.origin)).toEqual(['agent', 'agent']);

    // Another conversation has its own places.
    const again = await ask(agent, tool('create_schedule', daily({ name: 'Four' })));
    expect(again.message.actions[0].status).toBe('succeeded');
  });

  it("bounds what one member's conversations create on an agent, apart from the editors' places", async () => {
    const agent = await toolAgent();
    // Four conversations at once, two schedules each: the per-conversation limit (2) lets all 8 by.
    const asked = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        ask(
          agent,
          [
            tool('create_schedule', daily({ name: `Mine ${n}a` })),
            tool('create_schedule', daily({ name: `Mine ${n}b` })),
          ].join('\n'),
        ),
      ),
    );
    const actions = asked.flatMap(({ message }) => message.actions);
    expect(actions.filter((action) => action.status === 'succeeded')).toHaveLength(3);
    const refusals = new Set(
      actions.filter((action) => action.status === 'failed').map((action) => action.output![0].text),
    );
    expect([...refusals]).toEqual([
      "agents may create at most 3 schedules of this agent for one member, and 3 were created for you; disabling does not free a place (the agent's editors can delete them). Nothing was changed.",
    ]);
    expect(await listed(agent)).toHaveLength(3);

    // The agent's editors keep all their places (TRIGGERS_MAX_PER_AGENT, 4).
    expect(await byRoute(agent, 4)).toHaveLength(4);
    const full = await api(t, a.admin)
      .post(paths.triggers(wId, agent))
      .send({
        triggers: [
          {
            name: 'One more',
            kind: 'schedule',
            customPrompt: 'Check.',
            configuration: { cron: '0 8 * * *', timezone: 'UTC' },
          },
        ],
      })
      .expect(400);
    expect(full.body.error.message).toBe(
      'triggers: an agent has at most 4 triggers set up on these routes (schedules its tools create are counted apart); this one has 4, so at most 0 more can be created (delete some first).',
    );

    // Others' conversations share the agent's places for tools (TRIGGERS_MAX_FROM_TOOLS_PER_AGENT, 5).
    const other = await world.member(a.workspace, 'user');
    const others = [];
    for (const n of [1, 2, 3])
      others.push(await ask(agent, tool('create_schedule', daily({ name: `Theirs ${n}` })), other));
    expect(others.map(({ message }) => message.actions[0].status)).toEqual([
      'succeeded',
      'succeeded',
      'failed',
    ]);
    expect(others[2].message.actions[0].output![0].text).toBe(
      "an agent has at most 5 schedules created by agents' tools, and this one has 5; its editors can delete some on the agent's triggers. Nothing was changed.",
    );
    const origins = (await listed(agent)).map((trigger) => trigger.origin);
    expect(origins.filter((origin) => origin === 'agent')).toHaveLength(5);
    expect(origins.filter((origin) => origin === 'user')).toHaveLength(4);
  });

  it("refuses to disable another agent's trigger, an unknown one, or one another member set up", async () => {
    const other = await toolAgent();
    const [othersTrigger] = await byRoute(other, 1);
    const [adminsTrigger] = await byRoute(scheduler, 1);
    const { message } = await ask(
      scheduler,
      [
        tool('disable_schedule', { scheduleId: othersTrigger.sId }),
        tool('disable_schedule', { scheduleId: 'trg_unknown000' }),
        tool('disable_schedule', { scheduleId: adminsTrigger.sId }),
      ].join('\n'),
    );
    expect(message.actions.map((action) => action.output![0].text)).toEqual([
      `Trigger ${othersTrigger.sId} not found on this agent. Nothing was changed.`,
      'Trigger trg_unknown000 not found on this agent. Nothing was changed.',
      `Trigger ${adminsTrigger.sId} was set up by another member: only they, the agent's editors and workspace admins can disable it. Nothing was changed.`,
    ]);
    expect(message.actions.map((action) => action.status)).toEqual(['failed', 'failed', 'failed']);
    expect((await listed(other))[0].status).toBe('enabled');
    expect((await listed(scheduler)).find((trigger) => trigger.sId === adminsTrigger.sId)?.status).toBe(
      'enabled',
    );

    // The agent's editor may disable any of its schedules.
    const byEditor = await ask(
      scheduler,
      tool('disable_schedule', { scheduleId: adminsTrigger.sId }),
      a.admin,
    );
    expect(byEditor.message.actions[0].status).toBe('succeeded');
    expect((await listed(scheduler)).find((trigger) => trigger.sId === adminsTrigger.sId)?.status).toBe(
      'disabled',
    );
  });
});

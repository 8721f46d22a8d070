import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { Clock } from 'src/platform/clock/clock';
import { TriggerWorker } from 'src/modules/triggers/workers/trigger.worker';
import { WebhookDeliveryWorker } from 'src/modules/triggers/workers/webhook-delivery.worker';
import { FakeClock } from 'test/fakes/clock';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const schedule = (extra: Record<string, unknown> = {}) => ({
  name: 'Morning digest',
  kind: 'schedule',
  customPrompt: 'Summarise the open incidents.',
  configuration: { cron: '0 9 * * *', timezone: 'UTC' },
  ...extra,
});

/** A trigger posts as its editor: the key that sets one up must be one that could post. */
describe('triggers: what a key may set up, and which conversations it is shown', () => {
  const clock = new FakeClock(new Date('2026-06-01T12:00:00Z'));
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let wId: string;
  let builder: Actor;
  let reader: Actor;
  let agent: string;

  const rowCount = async () =>
    (await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM triggers'))[0].n;

  beforeAll(async () => {
    t = await createTestApp({
      overrides: [{ provide: Clock, useValue: clock }],
      env: { LOCAL_MODEL_CHUNK_DELAY_MS: 0 },
    });
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    builder = await world.member(a.workspace, 'builder');
    reader = await world.member(a.workspace, 'user');
    agent = (await world.agent(builder)).sId;
  });
  afterAll(() => t.close());

  it('takes write:conversation, besides write:agent, to create or change a trigger; deleting one takes write:agent', async () => {
    const narrow = await world.member(a.workspace, 'admin', ['read:agent', 'write:agent']);
    const source = (
      await api(t, a.admin)
        .post(paths.webhookSources(wId))
        .send({ name: 'GitHub: acme/rights', provider: 'github', includeGlobal: true })
        .expect(201)
    ).body.webhookSource as { views: { sId: string }[] };
    const webhook = {
      name: 'PR review',
      kind: 'webhook',
      customPrompt: 'Review this pull request.',
      configuration: { includePayload: false },
      webhookSourceViewSId: source.views[0].sId,
    };
    const before = await rowCount();
    for (const trigger of [schedule(), webhook]) {
      const res = await api(t, narrow)
        .post(paths.triggers(wId, agent))
        .send({ triggers: [trigger] })
        .expect(403);
      expect(res.body).toEqual({
        error: {
          type: 'insufficient_key_scope',
          message: 'The API key lacks the scope(s): write:conversation.',
        },
      });
    }
    expect(await rowCount()).toBe(before);

    const [created] = (
      await api(t, builder)
        .post(paths.triggers(wId, agent))
        .send({ triggers: [schedule()] })
        .expect(200)
    ).body.triggers as { sId: string }[];
    const patched = await api(t, narrow)
      .patch(paths.triggers(wId, agent))
      .send({ triggers: [{ ...schedule({ customPrompt: 'Something else.' }), sId: created.sId }] })
      .expect(403);
    expect(patched.body.error.type).toBe('insufficient_key_scope');
    await api(t, narrow)
      .delete(paths.triggers(wId, agent))
      .send({ triggerIds: [created.sId] })
      .expect(204);

    const enough = await world.key({ user: narrow.user, workspace: a.workspace }, [
      'read:agent',
      'write:agent',
      'write:conversation',
    ]);
    await api(t, enough)
      .post(paths.triggers(wId, agent))
      .send({ triggers: [schedule()] })
      .expect(200);
  });

  it("names a firing's or a delivery's conversation only to a key that reads conversations", async () => {
    const source = (
      await api(t, a.admin)
        .post(paths.webhookSources(wId))
        .send({ name: 'GitHub: acme/ids', provider: 'github', includeGlobal: true })
        .expect(201)
    ).body.webhookSource as { sId: string; secret: string; views: { sId: string }[] };
    const aId = (await world.agent(builder)).sId;
    const [webhookTrigger, scheduled] = (
      await api(t, builder)
        .post(paths.triggers(wId, aId))
        .send({
          triggers: [
            {
              name: 'PR review',
              kind: 'webhook',
              customPrompt: 'Review this pull request.',
              configuration: { includePayload: false },
              webhookSourceViewSId: source.views[0].sId,
            },
            schedule(),
          ],
        })
        .expect(200)
    ).body.triggers as { sId: string; nextFireAt: number }[];

    const body = JSON.stringify({ action: 'opened' });
    await api(t)
      .post(paths.hook(wId, source.sId))
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', 'pull_request')
      .set('X-GitHub-Delivery', 'rights-1')
      .set('X-Hub-Signature-256', `sha256=${createHmac('sha256', source.secret).update(body).digest('hex')}`)
      .send(body)
      .expect(202);
    await t.app.get(WebhookDeliveryWorker).runDue();
    clock.set(new Date(scheduled.nextFireAt + 1_000).toISOString());
    await t.app.get(TriggerWorker).runDue();

    const delivered = async (actor: Actor) => {
      const res = await api(t, actor)
        .get(paths.triggerWebhookRequests(wId, aId, webhookTrigger.sId))
        .expect(200);
      expect(res.body).toMatchApiSchema('WebhookRequestsResponse');
      return res.body.requests as { status: string; conversationId: string | null }[];
    };
    const fired = async (actor: Actor) => {
      const res = await api(t, actor)
        .get(paths.triggerFirings(wId, aId, scheduled.sId))
        .expect(200);
      expect(res.body).toMatchApiSchema('TriggerFiringsResponse');
      return res.body.firings as { status: string; conversationId: string | null }[];
    };

    // The editor, whose conversations they are, with a key that reads conversations.
    const [outcome] = await delivered(builder);
    expect(outcome).toMatchObject({ status: 'workflow_start_succeeded', conversationId: expect.any(String) });
    const [firing] = await fired(builder);
    expect(firing).toMatchObject({ status: 'succeeded', conversationId: expect.any(String) });

    // The editor's key without read:conversation: what the deliveries and firings did, not where.
    const agentOnly = await world.key({ user: builder.user, workspace: a.workspace }, ['read:agent']);
    expect(await delivered(agentOnly)).toEqual([{ ...outcome, conversationId: null }]);
    expect(await fired(agentOnly)).toEqual([{ ...firing, conversationId: null }]);
    // A member whose key reads conversations, and who can read these (in no restricted space).
    expect(await delivered(reader)).toEqual([outcome]);
    expect(await fired(reader)).toEqual([firing]);
  });
});

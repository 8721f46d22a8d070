import { afterAll, beforeAll, describe, it } from '@jest/globals';
import fc from 'fast-check';
import { createHmac } from 'node:crypto';
import { WebhookDeliveryWorker } from 'src/modules/triggers/workers/webhook-delivery.worker';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface Source {
  sId: string;
  secret: string;
  views: { sId: string }[];
}

interface Delivery {
  delivery: string;
  event?: string;
  action?: string;
}

interface OutcomeRow {
  delivery: string;
  status: string;
  error: string | null;
  conversation: string | null;
}

const ENV = {
  // Batches of three: every backlog below takes several.
  WEBHOOK_PROCESSING_BATCH_SIZE: 3,
  WEBHOOK_SOURCE_REQUESTS_PER_MINUTE: 100_000,
  LOCAL_MODEL_CHUNK_DELAY_MS: 0,
};

const NOT_OPENED = "The payload does not meet the trigger's filter.";
const NOT_RELEASE = 'The trigger listens to event "release"; the delivery\'s is "pull_request".';

describe('triggers: webhook deliveries processed in batches', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let builder: Actor;
  let worker: WebhookDeliveryWorker;

  const createSource = async (name: string) => {
    const res = await api(t, a.admin)
      .post(paths.webhookSources(a.workspace.sId))
      .send({ name, provider: 'github', includeGlobal: true })
      .expect(201);
    return res.body.webhookSource as Source;
  };
  const createTrigger = async (aId: string, source: Source, trigger: Record<string, unknown>) => {
    const res = await api(t, builder)
      .post(paths.triggers(a.workspace.sId, aId))
      .send({
        triggers: [
          {
            name: 'PR review',
            kind: 'webhook',
            customPrompt: 'Review this pull request.',
            webhookSourceViewSId: source.views[0].sId,
            ...trigger,
          },
        ],
      })
      .expect(200);
    return res.body.triggers[0] as { sId: string };
  };
  /** A pull request opened (or `action`) under its own delivery id, signed, acknowledged. */
  const hook = async (source: Source, { delivery, event = 'pull_request', action = 'opened' }: Delivery) => {
    const body = JSON.stringify({ action, pull_request: { title: `Change ${delivery}` } });
    const signature = `sha256=${createHmac('sha256', source.secret).update(body).digest('hex')}`;
    const res = await api(t)
      .post(paths.hook(a.workspace.sId, source.sId))
      .set('Content-Type', 'application/json')
      .set('X-GitHub-Event', event)
      .set('X-GitHub-Delivery', delivery)
      .set('X-Hub-Signature-256', signature)
      .send(body)
      .expect(202);
    expect(res.body).toEqual({ success: true, accepted: true });
  };
  /**
   * Stores the deliveries while the worker cannot get past its first claims (the triggers table is
   * locked): they wait as a backlog, then are processed.
   */
  const backlog = async (source: Source, deliveries: Delivery[], workers = [worker]) => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('LOCK TABLE triggers IN ACCESS EXCLUSIVE MODE');
      for (const delivery of deliveries) await hook(source, delivery);
      await runner.rollbackTransaction();
    } finally {
      await runner.release();
    }
    await Promise.all(workers.map((each) => each.runDue()));
  };
  /** A trigger's outcomes in the order they were written. */
  const outcomes = (tId: string) =>
    t.dataSource.query<OutcomeRow[]>(
      `SELECT r.delivery_id AS delivery, o.status, o.error, c.s_id AS conversation
       FROM webhook_request_triggers o JOIN triggers tr ON tr.id = o.trigger_id
       JOIN webhook_requests r ON r.id = o.webhook_request_id
       LEFT JOIN conversations c ON c.id = o.conversation_id
       WHERE tr.s_id = $1 ORDER BY o.id`,
      [tId],
    );
  const deliveriesOf = (source: Source) =>
    t.dataSource.query<{ delivery: string; status: string; error: string | null; payload: string | null }[]>(
      `SELECT r.delivery_id AS delivery, r.status, r.error, r.payload FROM webhook_requests r
       JOIN webhook_sources s ON s.id = r.webhook_source_id WHERE s.s_id = $1 ORDER BY r.id`,
      [source.sId],
    );
  const conversationsOf = (tId: string) => world.conversationsOfTrigger(tId);

  beforeAll(async () => {
    t = await createTestApp({ env: ENV });
    worker = t.app.get(WebhookDeliveryWorker);
    world = new World(t);
    a = await world.workspace();
    builder = await world.member(a.workspace, 'builder');
  });
  afterAll(() => t.close());

  it('processes a backlog of several batches once each, in arrival order, within the daily limit', async () => {
    const source = await createSource('GitHub: acme/backlog');
    const agent = (await world.agent(builder)).sId;
    const opened = await createTrigger(agent, source, {
      configuration: { includePayload: true, event: 'pull_request', filter: '$.action == "opened"' },
      executionPerDayLimitOverride: 2,
    });
    const releases = await createTrigger(agent, source, {
      name: 'Releases',
      configuration: { includePayload: false, event: 'release' },
    });
    const deliveries = Array.from({ length: 10 }, (_, n) => ({
      delivery: `backlog-${n}`,
      action: [1, 4, 7, 9].includes(n) ? 'opened' : 'synchronize',
    }));
    await backlog(source, deliveries);

    expect(await deliveriesOf(source)).toEqual(
      deliveries.map(({ delivery }) => ({ delivery, status: 'processed', error: null, payload: null })),
    );
    // The first two opened pull requests start conversations; the next two find the limit reached.
    const expected = (n: number) => {
      if (n === 1 || n === 4) return { status: 'workflow_start_succeeded', error: null };
      if (n === 7 || n === 9) {
        const error = 'The trigger started 2 conversations in the last 24 hours, its limit.';
        return { status: 'rate_limited', error, conversation: null };
      }
      return { status: 'not_matched', error: NOT_OPENED, conversation: null };
    };
    const fired = await outcomes(opened.sId);
    expect(fired).toEqual(
      deliveries.map(({ delivery }, n) => ({
        delivery,
        conversation: expect.any(String),
        ...expected(n),
      })),
    );
    expect(new Set(fired.flatMap((row) => row.conversation ?? [])).size).toBe(2);
    expect(await conversationsOf(opened.sId)).toBe(2);
    expect(await outcomes(releases.sId)).toEqual(
      deliveries.map(({ delivery }) => ({
        delivery,
        status: 'not_matched',
        error: NOT_RELEASE,
        conversation: null,
      })),
    );
  });

  it('records a delivery whose processing fails as failed, alone: the rest of its batch is processed', async () => {
    const source = await createSource('GitHub: acme/one-bad');
    const agent = (await world.agent(builder)).sId;
    const opened = await createTrigger(agent, source, {
      configuration: { includePayload: false, filter: '$.action == "opened"' },
    });
    const deliveries = [
      { delivery: 'good-0', action: 'opened' },
      { delivery: 'good-1', action: 'closed' },
      { delivery: 'bad', action: 'opened' },
      { delivery: 'good-2', action: 'opened' },
      { delivery: 'good-3', action: 'closed' },
    ];
    // Marking the bad delivery processed fails in PostgreSQL, as a write failure would.
    await t.dataSource.query(`
      CREATE FUNCTION refuse_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'delivery refused by the test'; END $$`);
    await t.dataSource.query(`
      CREATE TRIGGER refuse_delivery BEFORE UPDATE ON webhook_requests FOR EACH ROW
      WHEN (NEW.delivery_id = 'bad' AND NEW.status = 'processed') EXECUTE FUNCTION refuse_delivery()`);
    try {
      await backlog(source, deliveries);
    } finally {
      await t.dataSource.query('DROP TRIGGER refuse_delivery ON webhook_requests');
      await t.dataSource.query('DROP FUNCTION refuse_delivery()');
    }

    expect(await deliveriesOf(source)).toEqual(
      deliveries.map(({ delivery }) =>
        delivery === 'bad'
          ? { delivery, status: 'failed', error: 'delivery refused by the test', payload: null }
          : { delivery, status: 'processed', error: null, payload: null },
      ),
    );
    expect(await outcomes(opened.sId)).toEqual([
      {
        delivery: 'good-0',
        status: 'workflow_start_succeeded',
        error: null,
        conversation: expect.any(String),
      },
      { delivery: 'good-1', status: 'not_matched', error: NOT_OPENED, conversation: null },
      {
        delivery: 'bad',
        status: 'workflow_start_failed',
        error: 'delivery refused by the test',
        conversation: null,
      },
      {
        delivery: 'good-2',
        status: 'workflow_start_succeeded',
        error: null,
        conversation: expect.any(String),
      },
      { delivery: 'good-3', status: 'not_matched', error: NOT_OPENED, conversation: null },
    ]);
    // The bad delivery's conversation was undone with it.
    expect(await conversationsOf(opened.sId)).toBe(2);
  });

  it('shares a backlog between two processes: each delivery is processed by one of them, once', async () => {
    const other = await createTestApp({ env: ENV, databaseUrl: t.config.databaseUrl! });
    try {
      const source = await createSource('GitHub: acme/two-processes');
      const agent = (await world.agent(builder)).sId;
      const opened = await createTrigger(agent, source, {
        configuration: { includePayload: false },
        executionPerDayLimitOverride: 100,
      });
      const deliveries = Array.from({ length: 12 }, (_, n) => ({ delivery: `shared-${n}` }));
      await backlog(source, deliveries, [worker, other.app.get(WebhookDeliveryWorker)]);

      // Batches of the two processes run at once: their outcomes may interleave.
      const fired = (await outcomes(opened.sId)).sort(
        (x, y) => Number(x.delivery.split('-')[1]) - Number(y.delivery.split('-')[1]),
      );
      expect(fired.map(({ delivery, status }) => ({ delivery, status }))).toEqual(
        deliveries.map(({ delivery }) => ({ delivery, status: 'workflow_start_succeeded' })),
      );
      // A delivery processed twice would have opened a second conversation.
      expect(new Set(fired.map((row) => row.conversation)).size).toBe(12);
      expect(await conversationsOf(opened.sId)).toBe(12);
    } finally {
      await other.close();
    }
  });

  it("fires a trigger in its deliveries' arrival order across batches, whatever the mix", async () => {
    const delivery = fc.record({
      event: fc.constantFrom('pull_request', 'issues'),
      action: fc.constantFrom('opened', 'closed'),
    });
    const scenario = fc.record({
      limit: fc.integer({ min: 1, max: 3 }),
      deliveries: fc.array(delivery, { minLength: 1, maxLength: 8 }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ limit, deliveries }) => {
        run += 1;
        const source = await createSource(`GitHub: acme/mix-${run}`);
        const agent = (await world.agent(builder)).sId;
        const trigger = await createTrigger(agent, source, {
          configuration: { includePayload: false, event: 'pull_request', filter: '$.action == "opened"' },
          executionPerDayLimitOverride: limit,
        });
        const sent = deliveries.map((each, n) => ({ ...each, delivery: `mix-${run}-${n}` }));
        await backlog(source, sent);

        // What one delivery at a time, in arrival order, gives: the first `limit` matches start.
        let started = 0;
        const expected = sent.map(({ delivery, event, action }) => {
          if (event !== 'pull_request') return { delivery, status: 'not_matched' };
          if (action !== 'opened') return { delivery, status: 'not_matched' };
          started += 1;
          return { delivery, status: started <= limit ? 'workflow_start_succeeded' : 'rate_limited' };
        });
        const fired = await outcomes(trigger.sId);
        expect(fired.map(({ delivery, status }) => ({ delivery, status }))).toEqual(expected);
        expect(await conversationsOf(trigger.sId)).toBe(Math.min(started, limit));
      }),
      { numRuns: 6 },
    );
  });
});

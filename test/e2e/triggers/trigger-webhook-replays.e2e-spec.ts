import { afterAll, beforeAll, describe, it } from '@jest/globals';
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

/** How a kind of source is set up, and the headers of one signed delivery to it. */
interface Kind {
  name: string;
  source: Record<string, unknown>;
  deliveryHeader: string;
  /** The headers a sender signing `body` at `now` sends, the delivery id aside. */
  signed(source: Source, body: string): Record<string, string>;
  /** What a delivery without its delivery header is answered (a replay or a refusal). */
  dropped: { status: number; body: unknown };
}

const hex = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const REPLAY = { status: 202, body: { success: true, accepted: false } };

const KINDS: Kind[] = [
  {
    name: 'a GitHub source',
    source: { provider: 'github' },
    deliveryHeader: 'X-GitHub-Delivery',
    signed: (source, body) => ({
      'X-GitHub-Event': 'pull_request',
      'X-Hub-Signature-256': `sha256=${hex(source.secret, body)}`,
    }),
    // GitHub sends its delivery id with every delivery: one without it is not GitHub's.
    dropped: {
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          message: 'The X-GitHub-Delivery header is missing; GitHub sends it with every delivery.',
        },
      },
    },
  },
  {
    name: 'a source signing the bare body',
    source: { signatureHeader: 'X-Signature', deliveryHeader: 'X-Delivery-Id' },
    deliveryHeader: 'X-Delivery-Id',
    signed: (source, body) => ({ 'X-Signature': hex(source.secret, body) }),
    dropped: REPLAY,
  },
  {
    name: 'a timestamped source',
    source: {
      signatureHeader: 'X-Signature',
      timestampHeader: 'X-Timestamp',
      deliveryHeader: 'X-Delivery-Id',
    },
    deliveryHeader: 'X-Delivery-Id',
    signed: (source, body) => {
      const timestamp = String(Math.floor(Date.now() / 1000));
      return { 'X-Timestamp': timestamp, 'X-Signature': hex(source.secret, `${timestamp}.${body}`) };
    },
    dropped: REPLAY,
  },
];

describe('triggers: a signed webhook body fires once, whatever its delivery header', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let builder: Actor;
  let worker: WebhookDeliveryWorker;
  let sources = 0;

  const setUp = async (kind: Kind) => {
    const created = await api(t, a.admin)
      .post(paths.webhookSources(a.workspace.sId))
      .send({ name: `Replayed ${++sources}`, includeGlobal: true, ...kind.source })
      .expect(201);
    const source = created.body.webhookSource as Source;
    const agent = (await world.agent(builder)).sId;
    const trigger = await api(t, builder)
      .post(paths.triggers(a.workspace.sId, agent))
      .send({
        triggers: [
          {
            name: 'Replayed',
            kind: 'webhook',
            customPrompt: 'Look at this.',
            configuration: { includePayload: false },
            webhookSourceViewSId: source.views[0].sId,
            executionPerDayLimitOverride: 100,
          },
        ],
      })
      .expect(200);
    return { source, tId: trigger.body.triggers[0].sId as string };
  };
  const send = (app: TestApp, source: Source, body: string, headers: Record<string, string>) => {
    const req = api(app)
      .post(paths.hook(a.workspace.sId, source.sId))
      .set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(headers)) req.set(name, value);
    return req.send(body);
  };
  const storedOf = async (source: Source) =>
    (
      await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM webhook_requests r JOIN webhook_sources s ON s.id = r.webhook_source_id
         WHERE s.s_id = $1`,
        [source.sId],
      )
    )[0].n;
  const conversationsOf = (tId: string) => world.conversationsOfTrigger(tId);

  beforeAll(async () => {
    t = await createTestApp({ env: { LOCAL_MODEL_CHUNK_DELAY_MS: 0 } });
    worker = t.app.get(WebhookDeliveryWorker);
    world = new World(t);
    a = await world.workspace();
    builder = await world.member(a.workspace, 'builder');
  });
  afterAll(() => t.close());

  it.each(KINDS)(
    '$name: a captured delivery replayed with its delivery header changed or dropped',
    async (kind) => {
      const { source, tId } = await setUp(kind);
      const body = JSON.stringify({ action: 'opened', number: 7 });
      const captured = kind.signed(source, body);
      const first = await send(t, source, body, { ...captured, [kind.deliveryHeader]: 'd-1' });
      expect({ status: first.status, body: first.body }).toEqual({
        status: 202,
        body: { success: true, accepted: true },
      });

      for (const delivery of ['d-1', 'D-1', 'd-1x', 'another-id']) {
        const replay = await send(t, source, body, { ...captured, [kind.deliveryHeader]: delivery });
        expect({ delivery, status: replay.status, body: replay.body }).toEqual({ delivery, ...REPLAY });
      }
      const dropped = await send(t, source, body, captured);
      expect({ status: dropped.status, body: dropped.body }).toEqual(kind.dropped);
      expect(await storedOf(source)).toBe(1);
      await worker.runDue();
      expect(await conversationsOf(tId)).toBe(1);

      // The sender's next delivery (other bytes, signed) is taken as usual.
      const next = JSON.stringify({ action: 'opened', number: 8 });
      const fresh = await send(t, source, next, {
        ...kind.signed(source, next),
        [kind.deliveryHeader]: 'd-2',
      });
      expect(fresh.body).toEqual({ success: true, accepted: true });
      await worker.runDue();
      expect(await conversationsOf(tId)).toBe(2);
    },
  );

  it('keeps a replay sent to two processes at once to one delivery', async () => {
    const other = await createTestApp({
      env: { LOCAL_MODEL_CHUNK_DELAY_MS: 0 },
      databaseUrl: t.config.databaseUrl!,
    });
    try {
      const [github] = KINDS;
      const { source, tId } = await setUp(github);
      const body = JSON.stringify({ action: 'opened', number: 9 });
      const captured = github.signed(source, body);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, n) =>
          send(n % 2 === 0 ? t : other, source, body, { ...captured, 'X-GitHub-Delivery': `race-${n}` }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(202));
      expect(answers.filter((answer) => answer.body.accepted === true)).toHaveLength(1);
      expect(await storedOf(source)).toBe(1);
      await worker.runDue();
      expect(await conversationsOf(tId)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

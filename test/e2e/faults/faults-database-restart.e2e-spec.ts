import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { createDataSourceOptions } from 'src/app.data-source';
import {
  DatabaseHandle,
  startOrAttachEmbeddedPostgres,
  stopEmbeddedPostgres,
} from 'src/platform/database/embedded-postgres';
import { migrateWithLock } from 'src/platform/database/migrate';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { tempDataDir } from 'test/support/service-process';
import { SseConnection, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';
import { DataSource } from 'typeorm';

const context = { username: 'ada', timezone: 'UTC' };
/** An answer slower than this counts as a hang: a refused connection fails in milliseconds. */
const ANSWER_WITHIN_MS = 20_000;

/** The embedded PostgreSQL of this file alone, so stopping it affects no other test file. */
async function startPostgres(dataDir: string, port?: number): Promise<DatabaseHandle> {
  return startOrAttachEmbeddedPostgres({ dataDir, log: () => undefined, database: 'wa_faults', port });
}

describe('the database restarts under a running app', () => {
  let dataDir: string;
  let postgres: DatabaseHandle | null = null;
  let t: TestApp | undefined;
  let baseUrl: string;
  let world: World;
  let fixture: WorkspaceFixture;
  let fresh: Actor;
  let wId: string;
  let cId: string;
  const streams: SseConnection[] = [];

  const auth = (actor: Actor) => ({ Authorization: `Bearer ${actor.secret}` });
  const post = (content: string) =>
    api(t!, fixture.admin)
      .post(paths.messages(wId, cId))
      .send({ content, mentions: [], context })
      .timeout(ANSWER_WITHIN_MS);

  beforeAll(async () => {
    dataDir = await tempDataDir();
    postgres = await startPostgres(dataDir);
    const migrator = new DataSource(createDataSourceOptions(postgres.url));
    await migrator.initialize();
    try {
      await migrateWithLock(migrator);
    } finally {
      await migrator.destroy();
    }
    t = await createTestApp({
      databaseUrl: postgres.url,
      // Only the doorbell can deliver within the test's time: the slow poll never runs.
      env: {
        SSE_HEARTBEAT_MS: 1000,
        SSE_IDLE_TIMEOUT_MS: 600_000,
        SSE_POLL_MS: 600_000,
        SSE_SLOW_CLIENT_TIMEOUT_MS: 30_000,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    fixture = await world.workspace();
    wId = fixture.workspace.sId;
    // A key used for the first time while the database is down: the guard cannot look it up.
    fresh = await world.member(fixture.workspace, 'user');
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close().catch(() => undefined);
    await postgres?.release();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 envelopes while it is down, then serves again and catches streams up, without a restart', async () => {
    ({ sId: cId } = await world.conversation(fixture.admin, { title: 'Before the outage' }));
    const live = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(fixture.admin));
    streams.push(live);
    expect(live.status).toBe(200);
    await post('before').expect(200);
    const [before] = await live.waitForEvents(1);
    expect(before.data).toMatchObject({ type: 'user_message_new', message: { content: 'before' } });

    const port = Number(new URL(postgres!.url).port);
    // Stopped as an operator would, while the app still uses it.
    await stopEmbeddedPostgres(dataDir);
    postgres = null;

    // Every kind of request, with a cached key and with one never seen: 503 and the envelope, never a 500 or a hang.
    const down = await Promise.all([
      api(t!, fixture.admin).get(paths.conversation(wId, cId)).timeout(ANSWER_WITHIN_MS),
      api(t!, fixture.admin).get(paths.conversations(wId)).timeout(ANSWER_WITHIN_MS),
      api(t!, fixture.admin)
        .post(paths.conversations(wId))
        .send({ title: 'During' })
        .timeout(ANSWER_WITHIN_MS),
      post('during'),
      api(t!, fixture.admin)
        .get(`${paths.agents(wId)}?view=global`)
        .timeout(ANSWER_WITHIN_MS),
      api(t!, fresh).get(paths.conversation(wId, cId)).timeout(ANSWER_WITHIN_MS),
      api(t!, fresh).get(paths.me(wId)).timeout(ANSWER_WITHIN_MS),
    ]);
    for (const res of down) {
      expect({ status: res.status, body: res.body }).toEqual({
        status: 503,
        body: { error: { type: 'service_unavailable', message: expect.any(String) } },
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
    }
    const refusedStream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(fixture.admin));
    streams.push(refusedStream);
    expect(refusedStream.status).toBe(503);
    expect(JSON.parse(await refusedStream.body())).toEqual({
      error: { type: 'service_unavailable', message: expect.any(String) },
    });
    const readyz = await api(t!).get('/readyz').timeout(ANSWER_WITHIN_MS);
    expect({ status: readyz.status, body: readyz.body }).toEqual({
      status: 503,
      body: { error: { type: 'service_unavailable', message: 'Not ready: the database cannot be reached.' } },
    });
    await api(t!).get('/healthz').timeout(ANSWER_WITHIN_MS).expect(200);

    postgres = await startPostgres(dataDir, port);
    expect(postgres.url).toContain(`:${port}/`);
    await until(
      async () => (await api(t!).get('/readyz').timeout(ANSWER_WITHIN_MS)).status,
      (status) => status === 200,
      30_000,
    );

    const got = await api(t!, fixture.admin).get(paths.conversation(wId, cId)).expect(200);
    expect(got.body).toMatchApiSchema('ConversationResponse');
    const again = await api(t!, fresh).get(paths.conversation(wId, cId)).expect(200);
    expect(again.body).toMatchApiSchema('ConversationResponse');
    await api(t!, fixture.admin).post(paths.conversations(wId)).send({ title: 'After' }).expect(200);

    // The LISTEN connection comes back on its own (backoff); then a new message reaches the open stream.
    const doorbell = t!.app.get(EventDoorbell);
    await until(
      async () => doorbell.listening,
      (listening) => listening,
      30_000,
    );
    const afterMessage = await post('after').expect(200);
    expect(afterMessage.body).toMatchApiSchema('UserMessageResponse');
    const [, caughtUp] = await live.waitForEvents(2, 30_000);
    expect(caughtUp.data).toEqual({
      type: 'user_message_new',
      created: afterMessage.body.message.created,
      messageId: afterMessage.body.message.sId,
      message: afterMessage.body.message,
    });
    expect(live.events).toHaveLength(2);

    // A client that lost its stream resumes after its last event: the same events, no gap, no duplicate.
    const resumed = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, {
      ...auth(fixture.admin),
      'Last-Event-ID': before.id,
    });
    streams.push(resumed);
    expect(resumed.status).toBe(200);
    const replayed = await resumed.waitForEvents(1, 30_000);
    expect(replayed).toEqual([caughtUp]);

    const listed = await api(t!, fixture.admin).get(paths.messages(wId, cId)).expect(200);
    expect(listed.body).toMatchApiSchema('MessagesResponse');
    expect((listed.body.messages as { content: string }[]).map((message) => message.content)).toEqual([
      'before',
      'after',
    ]);
  });
});

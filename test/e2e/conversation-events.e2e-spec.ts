import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { SseStreams } from 'src/platform/http/sse-streams';
import { expect } from 'test/support/expect';
import { openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('conversation event stream', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let baseUrl: string;
  let wId: string;

  const auth = (secret: string) => ({ Authorization: `Bearer ${secret}` });
  const ssePath = (cId: string) => `/api/sse/w/${wId}/assistant/conversations/${cId}/events`;
  const newConversation = async () =>
    (await api(t, a.admin).post(`/api/w/${wId}/assistant/conversations`).send({ title: 'Live' }).expect(200))
      .body.conversation.sId as string;
  const post = async (cId: string, content: string, app: TestApp = t) =>
    (
      await api(app, a.admin)
        .post(`/api/w/${wId}/assistant/conversations/${cId}/messages`)
        .send({ content, mentions: [], context })
        .expect(200)
    ).body.message as Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestApp({
      config: { sse: { heartbeatMs: 100, idleTimeoutMs: 60_000, pollMs: 60_000, slowClientTimeoutMs: 500 } },
    });
    baseUrl = await t.listen();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
  });
  afterAll(() => t.close());

  it('redirects to the SSE route with the query kept, after checking access', async () => {
    const cId = await newConversation();
    const res = await api(t, a.admin)
      .get(`/api/w/${wId}/assistant/conversations/${cId}/events?lastEventId=5`)
      .expect(307);
    expect(res.headers.location).toBe(`${ssePath(cId)}?lastEventId=5`);
    await api(t, a.admin).get(`/api/w/${wId}/assistant/conversations/nope123456/events`).expect(404);
  });

  it('delivers a message posted after connecting, with the exact payload, through the redirect', async () => {
    const cId = await newConversation();
    const redirect = await api(t, a.admin)
      .get(`/api/w/${wId}/assistant/conversations/${cId}/events`)
      .expect(307);
    const stream = await openSse(`${baseUrl}${redirect.headers.location}`, auth(a.admin.secret));
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-cache');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      // The stream writes its own head: the request id and the key's rate limit are still on it.
      expect(stream.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(stream.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimitRequests));
      const message = await post(cId, 'hello stream');
      const [event] = await stream.waitForEvents(1);
      expect(event.data).toEqual({
        type: 'user_message_new',
        created: message.created,
        messageId: message.sId,
        message,
      });
      expect(event.data).toMatchApiSchema('UserMessageNewEvent');
      expect(event.id).toMatch(/^\d+$/);
    } finally {
      stream.close();
    }
  });

  it('replays what a client missed, once and in order, from Last-Event-ID or lastEventId', async () => {
    const cId = await newConversation();
    const first = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin.secret));
    await post(cId, 'm1');
    await post(cId, 'm2');
    const seen = await first.waitForEvents(2);
    first.close();
    for (const content of ['m3', 'm4', 'm5']) await post(cId, content);

    const resumed = await openSse(`${baseUrl}${ssePath(cId)}`, {
      ...auth(a.admin.secret),
      'Last-Event-ID': seen[1].id,
    });
    const byQuery = await openSse(
      `${baseUrl}${ssePath(cId)}?lastEventId=${seen[0].id}`,
      auth(a.admin.secret),
    );
    try {
      const contents = (events: { data: Record<string, unknown> }[]) =>
        events.map((event) => (event.data.message as { content: string }).content);
      expect(contents(await resumed.waitForEvents(3))).toEqual(['m3', 'm4', 'm5']);
      expect(contents(await byQuery.waitForEvents(4))).toEqual(['m2', 'm3', 'm4', 'm5']);
      await post(cId, 'm6');
      expect(contents(await resumed.waitForEvents(4))).toEqual(['m3', 'm4', 'm5', 'm6']);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(resumed.events).toHaveLength(4);
    } finally {
      resumed.close();
      byQuery.close();
    }
  });

  it('never skips an event written while it replays', async () => {
    const cId = await newConversation();
    for (let i = 0; i < 30; i++) await post(cId, `before ${i}`);
    const stream = await openSse(`${baseUrl}${ssePath(cId)}?lastEventId=0`, auth(a.admin.secret));
    try {
      await Promise.all(Array.from({ length: 30 }, (_, i) => post(cId, `during ${i}`)));
      const events = await stream.waitForEvents(61);
      const ids = events.map((event) => BigInt(event.id));
      expect(ids).toEqual([...ids].sort((x, y) => (x < y ? -1 : 1)));
      expect(new Set(ids.map(String)).size).toBe(61);
      const contents = events
        .filter((e) => e.data.type === 'user_message_new')
        .map((e) => (e.data.message as { content: string }).content);
      expect(new Set(contents).size).toBe(60);
    } finally {
      stream.close();
    }
  });

  it('delivers in order events written through another instance on the same database', async () => {
    const other = await createTestApp({ databaseUrl: t.config.databaseUrl! });
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin.secret));
    try {
      for (let i = 0; i < 100; i++) await post(cId, `remote ${i}`, other);
      const events = await stream.waitForEvents(100, 20_000);
      expect(events.map((event) => (event.data.message as { content: string }).content)).toEqual(
        Array.from({ length: 100 }, (_, i) => `remote ${i}`),
      );
    } finally {
      stream.close();
      await other.close();
    }
  });

  it('answers auth, access and unknown ids with the envelope, not a stream', async () => {
    const cId = await newConversation();
    const cases: [string, Record<string, string>, number, string][] = [
      [ssePath(cId), {}, 401, 'missing_authorization_header_error'],
      [ssePath(cId), auth(b.admin.secret), 401, 'workspace_auth_error'],
      [ssePath('nope123456'), auth(a.admin.secret), 404, 'conversation_not_found'],
      [`${ssePath(cId)}?lastEventId=abc`, auth(a.admin.secret), 400, 'invalid_request_error'],
      [ssePath(cId), { ...auth(a.admin.secret), 'Last-Event-ID': '-1' }, 400, 'invalid_request_error'],
      // One past the largest 64-bit id, and more digits than any id has.
      [
        ssePath(cId),
        { ...auth(a.admin.secret), 'Last-Event-ID': '9223372036854775808' },
        400,
        'invalid_request_error',
      ],
      [
        `${ssePath(cId)}?lastEventId=99999999999999999999`,
        auth(a.admin.secret),
        400,
        'invalid_request_error',
      ],
    ];
    const narrow = await world.key(a.admin, ['read:agent']);
    cases.push([ssePath(cId), auth(narrow.secret), 403, 'insufficient_key_scope']);
    for (const [path, headers, status, type] of cases) {
      const res = await openSse(`${baseUrl}${path}`, headers);
      expect({ status: res.status, contentType: res.headers['content-type'] }).toEqual({
        status,
        contentType: expect.stringMatching(/^application\/json/),
      });
      const body: unknown = JSON.parse(await res.body());
      expect(body).toEqual({ error: { type, message: expect.any(String) } });
      expect(body).toMatchApiSchema('ErrorResponse');
    }
  });

  it('refuses an event id past the range of event ids with 400, not a broken stream', async () => {
    const cId = await newConversation();
    for (const [path, headers] of [
      [`${ssePath(cId)}?lastEventId=9223372036854775808`, auth(a.admin.secret)],
      [ssePath(cId), { ...auth(a.admin.secret), 'Last-Event-ID': '9999999999999999999' }],
    ] as const) {
      const res = await openSse(`${baseUrl}${path}`, headers);
      expect({ status: res.status, contentType: res.headers['content-type'] }).toEqual({
        status: 400,
        contentType: expect.stringMatching(/^application\/json/),
      });
      const body: unknown = JSON.parse(await res.body());
      expect(body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
      expect(body).toMatchApiSchema('ErrorResponse');
    }
    // The largest id there can be is a valid position: nothing comes after it.
    const last = await openSse(
      `${baseUrl}${ssePath(cId)}?lastEventId=9223372036854775807`,
      auth(a.admin.secret),
    );
    expect(last.status).toBe(200);
    last.close();
  });

  it('sends heartbeats and releases everything when the client disconnects', async () => {
    const doorbell = t.app.get(EventDoorbell);
    const streams = t.app.get(SseStreams);
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin.secret));
    await until(() => stream.comments.length >= 2);
    expect(stream.comments[0]).toBe(': ping');
    expect(streams.count).toBe(1);
    expect(doorbell.subscriptionCount()).toBe(1);
    stream.close();
    await until(() => streams.count === 0 && doorbell.subscriptionCount() === 0);
  });

  it('catches up after its LISTEN connection is cut', async () => {
    const doorbell = t.app.get(EventDoorbell);
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin.secret));
    try {
      await t.dataSource.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()",
      );
      await until(() => !doorbell.listening);
      await post(cId, 'while deaf');
      await until(() => doorbell.listening, 10_000);
      const [event] = await stream.waitForEvents(1, 10_000);
      expect((event.data.message as { content: string }).content).toBe('while deaf');
    } finally {
      stream.close();
    }
  });

  it('disconnects a client that stops reading instead of buffering for it', async () => {
    const streams = t.app.get(SseStreams);
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin.secret));
    stream.pause();
    const big = 'x'.repeat(90_000);
    // Enough to fill the loopback socket buffers of both ends (several MB).
    for (let i = 0; i < 300 && streams.count > 0; i++) await post(cId, `${i} ${big}`);
    // The server gives up on the stream while the client still holds unread data.
    await until(() => streams.count === 0, 10_000);
    expect(t.app.get(EventDoorbell).subscriptionCount()).toBe(0);
    stream.close();
  });

  it('closes idle streams and every stream at shutdown', async () => {
    const quiet = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      config: { sse: { heartbeatMs: 50, idleTimeoutMs: 300, pollMs: 100, slowClientTimeoutMs: 1000 } },
    });
    const url = await quiet.listen();
    const cId = await newConversation();
    const idle = await openSse(`${url}${ssePath(cId)}`, auth(a.admin.secret));
    await idle.ended;
    const open = await openSse(`${url}${ssePath(cId)}`, auth(a.admin.secret));
    await post(cId, 'still here');
    await open.waitForEvents(1);
    const started = Date.now();
    await quiet.close();
    await open.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(quiet.app.get(EventDoorbell).subscriptionCount()).toBe(0);
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { EventDoorbell } from 'src/platform/events/event-doorbell';
import { SseStreams } from 'src/platform/http/sse-streams';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { SseMessage, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until, untilTrue } from 'test/support/until';
import { ApiWorld, World, WorkspaceFixture, api } from 'test/support/world';

describe('conversation event stream', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let baseUrl: string;
  let wId: string;

  const auth = (secret: string) => ({ Authorization: `Bearer ${secret}` });

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SSE_HEARTBEAT_MS: 100,
        SSE_IDLE_TIMEOUT_MS: 60_000,
        SSE_POLL_MS: 60_000,
        SSE_SLOW_CLIENT_TIMEOUT_MS: 500,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
  });
  afterAll(() => t.close());

  it('redirects to the SSE route with the query kept, after checking access', async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const res = await api(t, a.admin)
      .get(`${paths.events(wId, cId)}?lastEventId=5`)
      .expect(307);
    expect(res.headers.location).toBe(`${paths.stream(wId, cId)}?lastEventId=5`);
    await api(t, a.admin).get(paths.events(wId, 'nope123456')).expect(404);
  });

  it('delivers a message posted after connecting, with the exact payload, through the redirect', async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const redirect = await api(t, a.admin).get(paths.events(wId, cId)).expect(307);
    const stream = await openSse(`${baseUrl}${redirect.headers.location}`, auth(a.admin.secret));
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['cache-control']).toBe('no-cache');
      expect(stream.headers['x-accel-buffering']).toBe('no');
      // The stream writes its own head: the request id and the key's rate limit are still on it.
      expect(stream.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(stream.headers['x-ratelimit-limit']).toBe(String(t.config.rateLimitRequests));
      const message = await world.message(a.admin, cId, 'hello stream');
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
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const first = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    await world.message(a.admin, cId, 'm1');
    await world.message(a.admin, cId, 'm2');
    const seen = await first.waitForEvents(2);
    first.close();
    for (const content of ['m3', 'm4', 'm5']) await world.message(a.admin, cId, content);

    const resumed = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, {
      ...auth(a.admin.secret),
      'Last-Event-ID': seen[1].id,
    });
    const byQuery = await openSse(
      `${baseUrl}${paths.stream(wId, cId)}?lastEventId=${seen[0].id}`,
      auth(a.admin.secret),
    );
    try {
      const contents = (events: { data: Record<string, unknown> }[]) =>
        events.map((event) => (event.data.message as { content: string }).content);
      expect(contents(await resumed.waitForEvents(3))).toEqual(['m3', 'm4', 'm5']);
      expect(contents(await byQuery.waitForEvents(4))).toEqual(['m2', 'm3', 'm4', 'm5']);
      await world.message(a.admin, cId, 'm6');
      expect(contents(await resumed.waitForEvents(4))).toEqual(['m3', 'm4', 'm5', 'm6']);
      // Nothing is sent twice: the next event after m6 is m7's.
      await world.message(a.admin, cId, 'm7');
      expect(contents(await resumed.waitForEvents(5))).toEqual(['m3', 'm4', 'm5', 'm6', 'm7']);
    } finally {
      resumed.close();
      byQuery.close();
    }
  });

  it('never skips an event written while it replays', async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    for (let i = 0; i < 30; i++) await world.message(a.admin, cId, `before ${i}`);
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}?lastEventId=0`, auth(a.admin.secret));
    try {
      await Promise.all(Array.from({ length: 30 }, (_, i) => world.message(a.admin, cId, `during ${i}`)));
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

  it('tells the clients of a stopping process to reconnect, to resume elsewhere from their last event', async () => {
    const stopping = await createTestApp({ databaseUrl: t.config.databaseUrl! });
    const { sId: cId } = await world.conversation(a.admin, { title: 'Moving' });
    await world.message(a.admin, cId, 'before the stop');
    const stream = await openSse(
      `${await stopping.listen()}${paths.stream(wId, cId)}?lastEventId=0`,
      auth(a.admin.secret),
    );
    const content = (event: SseMessage) => (event.data.message as { content?: string } | undefined)?.content;
    const seen = (
      await until(
        async () => stream.events,
        (events) => events.some((event) => content(event) === 'before the stop'),
      )
    ).at(-1)!;
    await stopping.close();
    await stream.ended;
    expect(stream.retry()).toBe(1_000);

    await world.message(a.admin, cId, 'after the stop');
    const resumed = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, {
      ...auth(a.admin.secret),
      'Last-Event-ID': seen.id,
    });
    try {
      const [next] = await resumed.waitForEvents(1);
      expect(content(next)).toBe('after the stop');
    } finally {
      resumed.close();
    }
  });

  it('delivers in order events written through another instance on the same database', async () => {
    const other = await createTestApp({ databaseUrl: t.config.databaseUrl! });
    const remote = new ApiWorld(other);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    try {
      for (let i = 0; i < 100; i++) await remote.message(a.admin, cId, `remote ${i}`);
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
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const cases: [string, Record<string, string>, number, string][] = [
      [paths.stream(wId, cId), {}, 401, 'missing_authorization_header_error'],
      [paths.stream(wId, cId), auth(b.admin.secret), 401, 'workspace_auth_error'],
      [paths.stream(wId, 'nope123456'), auth(a.admin.secret), 404, 'conversation_not_found'],
      [`${paths.stream(wId, cId)}?lastEventId=abc`, auth(a.admin.secret), 400, 'invalid_request_error'],
      [
        paths.stream(wId, cId),
        { ...auth(a.admin.secret), 'Last-Event-ID': '-1' },
        400,
        'invalid_request_error',
      ],
      // One past the largest 64-bit id, and more digits than any id has.
      [
        paths.stream(wId, cId),
        { ...auth(a.admin.secret), 'Last-Event-ID': '9223372036854775808' },
        400,
        'invalid_request_error',
      ],
      [
        `${paths.stream(wId, cId)}?lastEventId=99999999999999999999`,
        auth(a.admin.secret),
        400,
        'invalid_request_error',
      ],
    ];
    const narrow = await world.key(a.admin, ['read:agent']);
    cases.push([paths.stream(wId, cId), auth(narrow.secret), 403, 'insufficient_key_scope']);
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
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    for (const [path, headers] of [
      [`${paths.stream(wId, cId)}?lastEventId=9223372036854775808`, auth(a.admin.secret)],
      [paths.stream(wId, cId), { ...auth(a.admin.secret), 'Last-Event-ID': '9999999999999999999' }],
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
      `${baseUrl}${paths.stream(wId, cId)}?lastEventId=9223372036854775807`,
      auth(a.admin.secret),
    );
    expect(last.status).toBe(200);
    last.close();
  });

  it('sends heartbeats and releases everything when the client disconnects', async () => {
    const doorbell = t.app.get(EventDoorbell);
    const streams = t.app.get(SseStreams);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    await untilTrue(() => stream.comments.length >= 2);
    expect(stream.comments[0]).toBe(': ping');
    expect(streams.count).toBe(1);
    expect(doorbell.subscriptionCount()).toBe(1);
    stream.close();
    await untilTrue(() => streams.count === 0 && doorbell.subscriptionCount() === 0);
  });

  it('catches up after its LISTEN connection is cut', async () => {
    const doorbell = t.app.get(EventDoorbell);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    try {
      await t.dataSource.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database()",
      );
      await untilTrue(() => !doorbell.listening);
      await world.message(a.admin, cId, 'while deaf');
      await untilTrue(() => doorbell.listening, 10_000);
      const [event] = await stream.waitForEvents(1, 10_000);
      expect((event.data.message as { content: string }).content).toBe('while deaf');
    } finally {
      stream.close();
    }
  });

  it('disconnects a client that stops reading instead of buffering for it', async () => {
    const streams = t.app.get(SseStreams);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    stream.pause();
    const big = 'x'.repeat(90_000);
    // Enough to fill the loopback socket buffers of both ends (several MB).
    for (let i = 0; i < 300 && streams.count > 0; i++) await world.message(a.admin, cId, `${i} ${big}`);
    // The server gives up on the stream while the client still holds unread data.
    await untilTrue(() => streams.count === 0, 10_000);
    expect(t.app.get(EventDoorbell).subscriptionCount()).toBe(0);
    stream.close();
  });

  it('closes idle streams and every stream at shutdown', async () => {
    const quiet = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: {
        SSE_HEARTBEAT_MS: 50,
        SSE_IDLE_TIMEOUT_MS: 300,
        SSE_POLL_MS: 100,
        SSE_SLOW_CLIENT_TIMEOUT_MS: 1000,
      },
    });
    const url = await quiet.listen();
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const idle = await openSse(`${url}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    await idle.ended;
    const open = await openSse(`${url}${paths.stream(wId, cId)}`, auth(a.admin.secret));
    await world.message(a.admin, cId, 'still here');
    await open.waitForEvents(1);
    const started = Date.now();
    await quiet.close();
    await open.ended;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(quiet.app.get(EventDoorbell).subscriptionCount()).toBe(0);
  });
});

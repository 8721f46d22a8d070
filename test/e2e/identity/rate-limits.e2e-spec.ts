import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type request from 'supertest';
import { expect } from 'test/support/expect';
import { RATE_LIMIT_SYNC_INTERVAL_MS } from 'src/platform/auth/rate-limit/rate-limiter';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

/** Long windows, so that a test never straddles two of them (see `awayFromWindowEnd`). */
const WINDOW_SECONDS = 3600;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Windows are aligned on the epoch of the real clock, which the processes and the database share:
 * wait for the next one when this one ends before a test would (rarely: within 15 s of an hour).
 */
async function awayFromWindowEnd(): Promise<void> {
  const left = WINDOW_SECONDS * 1000 - (Date.now() % (WINDOW_SECONDS * 1000));
  if (left < 15_000) await sleep(left + 100);
}

const headers = (res: request.Response) => ({
  limit: res.headers['x-ratelimit-limit'],
  remaining: res.headers['x-ratelimit-remaining'],
  reset: res.headers['x-ratelimit-reset'],
});

describe('rate limits per API key', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  const me = () => `/api/w/${a.workspace.sId}/me`;

  /** The shared counter of a key in the current window, as the processes reconcile it. */
  const sharedCount = async (app: TestApp, actor: Actor) => {
    const rows = await app.dataSource.query<{ count: number }[]>(
      'SELECT count FROM rate_limit_counters WHERE api_key_s_id = $1 ORDER BY window_start DESC LIMIT 1',
      [actor.keyId],
    );
    return rows[0]?.count ?? 0;
  };

  /** Polls the shared counter of a key until it holds `count`. */
  const counted = (app: TestApp, actor: Actor, count: number) =>
    until(
      () => sharedCount(app, actor),
      (value) => value === count,
      5_000,
    );

  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_REQUESTS: 3, RATE_LIMIT_WINDOW_SECONDS: WINDOW_SECONDS } });
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(() => t.close());

  it('answers the fourth request of a key with 429 rate_limit_error, Retry-After and the X-RateLimit headers', async () => {
    await awayFromWindowEnd();
    const key = await world.key(a.admin);
    const now = Date.now();
    const windowEnd = (now - (now % (WINDOW_SECONDS * 1000))) / 1000 + WINDOW_SECONDS;
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api(t, key).get(me()));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 429]);
    expect(answers.map(headers)).toEqual(
      ['2', '1', '0', '0'].map((remaining) => ({ limit: '3', remaining, reset: String(windowEnd) })),
    );
    const refused = answers[3];
    expect(refused.body).toEqual({ error: { type: 'rate_limit_error', message: expect.any(String) } });
    expect(refused.body).toMatchApiSchema('ErrorResponse');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowEnd - Math.floor(Date.now() / 1000) + 1);
    expect(answers[0].headers['retry-after']).toBeUndefined();
  });

  it('limits each key on its own, counts refused scopes, and says nothing to unauthenticated callers', async () => {
    await awayFromWindowEnd();
    const narrow = await world.key(a.admin, ['read:agent']);
    const denied = await api(t, narrow).get(`/api/w/${a.workspace.sId}/assistant/conversations`).expect(403);
    expect(headers(denied)).toMatchObject({ limit: '3', remaining: '2' });
    const other = await world.key(a.admin);
    expect(headers(await api(t, other).get(me()).expect(200))).toMatchObject({ remaining: '2' });
    const anonymous = await api(t).get(me()).expect(401);
    expect(headers(anonymous)).toEqual({ limit: undefined, remaining: undefined, reset: undefined });
  });

  it('holds the limit across two processes on one database', async () => {
    await awayFromWindowEnd();
    const key = await world.key(a.admin);
    const second = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { RATE_LIMIT_REQUESTS: 10, RATE_LIMIT_WINDOW_SECONDS: WINDOW_SECONDS },
    });
    const first = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { RATE_LIMIT_REQUESTS: 10, RATE_LIMIT_WINDOW_SECONDS: WINDOW_SECONDS },
    });
    try {
      for (let i = 0; i < 6; i++) await api(first, key).get(me()).expect(200);
      // The first process reports its 6 requests.
      await counted(t, key, 6);

      // The second process reads the key's counter on its first request there: 4 are left.
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await api(second, key).get(me())).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      // The second process reports its 4.
      await counted(t, key, 10);

      // The first process learns the other's use when it reconciles, on a timer of real time: a
      // request to find out earlier would count against the key.
      await sleep(2 * RATE_LIMIT_SYNC_INTERVAL_MS);
      const refused = await api(first, key).get(me()).expect(429);
      expect(headers(refused)).toMatchObject({ limit: '10', remaining: '0' });
      expect(await sharedCount(t, key)).toBe(10);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('hands the counts a process has not reported yet to the others when it shuts down', async () => {
    await awayFromWindowEnd();
    const key = await world.key(a.admin);
    const other = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { RATE_LIMIT_REQUESTS: 10, RATE_LIMIT_WINDOW_SECONDS: WINDOW_SECONDS },
    });
    await Promise.all([api(other, key).get(me()).expect(200), api(other, key).get(me()).expect(200)]);
    await other.close();
    expect(await sharedCount(t, key)).toBe(2);
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { expect, expectError } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

const PUBLIC_PATHS = [
  '/healthz',
  '/readyz',
  // No API key: the metrics token (its own security scheme), or METRICS_PORT.
  '/metrics',
  '/api/w/{wId}/files/{fileId}/public',
  '/api/v1/w/{wId}/files/{fileId}/public',
  // No API key: the body is signed with its webhook source's secret (headers documented on the route).
  '/api/v1/w/{wId}/triggers/hooks/{webhookSourceSId}',
];

describe('authentication and the guard', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
  });
  afterAll(() => t.close());

  const members = (wId: string) => `/api/w/${wId}/members`;

  it('answers a missing header with 401 missing_authorization_header_error', async () => {
    expectError(
      await request(t.http).get(members(a.workspace.sId)),
      401,
      'missing_authorization_header_error',
    );
  });

  it('answers a non-bearer or empty bearer header with 401 malformed_authorization_header_error', async () => {
    for (const header of [`Basic ${Buffer.from('x:y').toString('base64')}`, 'Bearer', 'Bearer ', 'sk-abc']) {
      const res = await request(t.http).get(members(a.workspace.sId)).set('Authorization', header);
      expectError(res, 401, 'malformed_authorization_header_error');
    }
  });

  it('takes the bearer scheme in any case (RFC 9110), and still checks the key', async () => {
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) {
      const res = await request(t.http)
        .get(members(a.workspace.sId))
        .set('Authorization', `${scheme} ${a.admin.secret}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchApiSchema('MembersResponse');
      expectError(
        await request(t.http).get(members(a.workspace.sId)).set('Authorization', `${scheme} sk-unknown`),
        401,
        'invalid_api_key_error',
      );
    }
  });

  it('answers an unknown key with 401 invalid_api_key_error', async () => {
    for (const secret of ['sk-00000000000000000000000000000000', 'not-a-key']) {
      expectError(await api(t, { secret }).get(members(a.workspace.sId)), 401, 'invalid_api_key_error');
    }
  });

  it("answers another workspace's key, and an unknown workspace, with 401 workspace_auth_error", async () => {
    expectError(await api(t, a.admin).get(members(b.workspace.sId)), 401, 'workspace_auth_error');
    expectError(await api(t, a.admin).get(members('noSuchWsp1')), 401, 'workspace_auth_error');
  });

  it('answers a key without the route scope with 403, even for an admin, and 200 with it', async () => {
    const narrow = await world.key(a.admin, ['read:agent']);
    const body = { email: 'scoped@example.com', fullName: 'Scoped', role: 'user' };
    expectError(
      await api(t, narrow).post(members(a.workspace.sId)).send(body),
      403,
      'insufficient_key_scope',
    );
    const res = await api(t, a.admin).post(members(a.workspace.sId)).send(body).expect(200);
    expect(res.body).toMatchApiSchema('MemberResponse');
  });

  it('stops a revoked key at once on this process', async () => {
    const key = await world.key(a.admin);
    await api(t, key).get(members(a.workspace.sId)).expect(200);
    const revoked = await api(t, a.admin).delete(`/api/w/${a.workspace.sId}/keys/${key.keyId}`).expect(200);
    expect(revoked.body).toMatchApiSchema('ApiKeyResponse');
    expect(revoked.body.apiKey.revokedAt).toEqual(expect.any(Number));
    expectError(await api(t, key).get(members(a.workspace.sId)), 401, 'invalid_api_key_error');
  });

  it('stops a revoked key within 5 s on another process on the same database', async () => {
    const other = await createTestApp({ databaseUrl: t.config.databaseUrl! });
    try {
      const key = await world.key(a.admin);
      await api(other, key).get(members(a.workspace.sId)).expect(200);
      await api(t, a.admin).delete(`/api/w/${a.workspace.sId}/keys/${key.keyId}`).expect(200);
      const revokedAt = Date.now();
      const refused = await until(
        async () => (await api(other, key).get(members(a.workspace.sId))).status,
        (status) => status !== 200,
        6_000,
      );
      expect(refused).toBe(401);
      expect(Date.now() - revokedAt).toBeLessThan(5000);
    } finally {
      await other.close();
    }
  });

  it('takes a demotion into account at once', async () => {
    const builder = await world.member(a.workspace, 'admin');
    await api(t, builder).get(`/api/w/${a.workspace.sId}/keys`).expect(200);
    await api(t, a.admin)
      .patch(`${members(a.workspace.sId)}/${builder.user.sId}`)
      .send({ role: 'user' })
      .expect(200);
    const res = await api(t, builder)
      .post('/api/w/' + a.workspace.sId + '/spaces')
      .send({ name: 'Nope' });
    expectError(res, 403, 'workspace_auth_error');
  });

  it('records lastUsedAt when a key is used', async () => {
    const key = await world.key(a.admin);
    await api(t, key).get(members(a.workspace.sId)).expect(200);
    // Written off the request path, right after it.
    const [{ last_used_at: lastUsedAt }] = await until(
      () =>
        t.dataSource.query<{ last_used_at: Date | null }[]>(
          'SELECT last_used_at FROM api_keys WHERE s_id = $1',
          [key.keyId],
        ),
      ([row]) => row.last_used_at !== null,
      5_000,
    );
    expect(lastUsedAt).toBeInstanceOf(Date);
  });

  it('declares the bearer scheme and the scopes of every non-public route in the OpenAPI document', () => {
    const operations = Object.entries(t.document.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, { security?: unknown; 'x-required-scopes'?: unknown }>).map(
        ([method, operation]) => ({ path, method, operation }),
      ),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { path, method, operation } of operations) {
      if (PUBLIC_PATHS.includes(path)) continue;
      expect({ path, method, security: operation.security }).toEqual({
        path,
        method,
        security: [{ bearer: [] }],
      });
      expect(Array.isArray(operation['x-required-scopes'])).toBe(true);
    }
  });
});

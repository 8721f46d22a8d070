import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { AccessLog, createAccessLog } from 'src/platform/logging/app-logger';
import { expect } from 'test/support/expect';
import { captureLogs } from 'test/support/log-capture';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

describe('request logs', () => {
  const logs = captureLogs();
  let t: TestApp;
  let a: WorkspaceFixture;
  let world: World;

  /** The access line of the request that carried `requestId`, once written. */
  const lineOf = (requestId: string) =>
    until(
      async () => logs.lines().find((line) => (line.req as { id?: string } | undefined)?.id === requestId),
      (line) => line !== undefined,
    );

  beforeAll(async () => {
    t = await createTestApp({
      overrides: [{ provide: AccessLog, useValue: new AccessLog(createAccessLog(logs.logger)) }],
    });
    world = new World(t);
    a = await world.workspace();
  });
  afterAll(() => t.close());

  it('writes the route template, status, workspace and key of a request, never its bearer key', async () => {
    const res = await api(t, a.admin).get(paths.me(a.workspace.sId)).set('X-Request-Id', 'req-me-1');
    expect(res.status).toBe(200);
    const line = await lineOf('req-me-1');
    expect(line).toMatchObject({
      level: 30,
      msg: 'request completed',
      route: '/api/w/:wId/me',
      workspace: a.workspace.sId,
      keyId: a.admin.keyId,
      req: { id: 'req-me-1', method: 'GET', url: paths.me(a.workspace.sId) },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(line?.trace_id).toBeUndefined();
    expect(logs.text()).not.toContain(a.admin.secret);
  });

  it('writes a refused request at warn, without a workspace it could not prove', async () => {
    const res = await request(t.http)
      .get(paths.me(a.workspace.sId))
      .set('Authorization', 'Bearer sk-not-a-key-of-anyone')
      .set('X-Request-Id', 'req-refused-1');
    expect(res.status).toBe(401);
    const line = await lineOf('req-refused-1');
    expect(line).toMatchObject({ level: 40, route: '/api/w/:wId/me', res: { statusCode: 401 } });
    expect(line).not.toHaveProperty('workspace');
    expect(logs.text()).not.toContain('sk-not-a-key-of-anyone');
  });

  it("never writes a signed URL's signature", async () => {
    const file = await world.file(a.admin);
    const signed = new URL(file.uploadUrl);
    const signature = signed.searchParams.get('signature')!;
    await request(t.http).post(`${signed.pathname}${signed.search}`).set('X-Request-Id', 'req-signed-1');
    const line = await lineOf('req-signed-1');
    expect((line?.req as { url: string }).url).toContain('signature=[Redacted]');
    expect(line?.route).toBe('/api/w/:wId/files/:fileId');
    expect(logs.text()).not.toContain(signature);
  });
});

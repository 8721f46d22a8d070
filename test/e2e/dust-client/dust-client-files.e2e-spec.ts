import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DustAPI } from '@dust-tt/client';
import { freePort } from 'src/platform/net/free-port';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const quiet = { error: () => {}, info: () => {}, trace: () => {}, warn: () => {} };

/** A file's content as Dust's client 1.2.8 reads it with `getFileContent`, under the download's rules. */
describe("file content through Dust's client", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let base: string;
  const content = 'Refunds within 30 days.\n'.repeat(10);

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: base } });
    await t.app.listen(port, '127.0.0.1');
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    member = await world.member(a.workspace, 'user');
  });
  afterAll(() => t.close());

  async function uploaded(actor: Actor): Promise<string> {
    const created = await api(t, actor)
      .post(paths.files(actor.workspace.sId))
      .send({
        contentType: 'text/plain',
        fileName: 'policy.txt',
        fileSize: content.length,
        useCase: 'conversation',
      })
      .expect(200);
    const fileId = created.body.file.sId as string;
    await api(t, actor)
      .post(`${paths.files(actor.workspace.sId)}/${fileId}`)
      .attach('file', Buffer.from(content), 'policy.txt')
      .expect(200);
    return fileId;
  }

  it('answers the original content inline, to whoever may download it', async () => {
    const fileId = await uploaded(member);
    const dust = new DustAPI({ url: base }, { apiKey: member.secret, workspaceId: a.workspace.sId }, quiet);
    const blob = await dust.getFileContent({ fileId });
    if (blob.isErr()) throw new Error(`getFileContent failed: ${blob.error.message}`);
    expect(await blob.value.text()).toBe(content);

    const res = await api(t, member).get(
      `/api/v1/w/${a.workspace.sId}/files/${fileId}?action=view&version=original`,
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="policy.txt"/);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('refuses a version without view, an unknown version, and another workspace or a key without read:file', async () => {
    const fileId = await uploaded(member);
    const path = `/api/v1/w/${a.workspace.sId}/files/${fileId}`;
    for (const [query, field] of [
      ['action=view&version=processed', /version/],
      ['version=original', /version: only with action=view/],
      ['action=view&version=original&size=2', /size/],
    ] as const) {
      const res = await api(t, member).get(`${path}?${query}`);
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error.message).toMatch(field);
    }
    const foreign = await api(t, b.admin).get(
      `/api/v1/w/${b.workspace.sId}/files/${fileId}?action=view&version=original`,
    );
    expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
      status: 404,
      type: 'file_not_found',
    });
    const noScope = await world.key({ user: member.user, workspace: a.workspace }, ['read:conversation']);
    const scoped = await api(t, noScope).get(`${path}?action=view&version=original`);
    expect({ status: scoped.status, type: scoped.body.error?.type }).toEqual({
      status: 403,
      type: 'insufficient_key_scope',
    });
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SseStreams } from 'src/platform/http/sse-streams';
import { expect } from 'test/support/expect';
import { SseConnection, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves with the time the stream took to end, or rejects after `timeoutMs`. */
async function endsWithin(stream: SseConnection, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    stream.ended,
    new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the stream was still open after ${timeoutMs} ms`)),
        timeoutMs,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('event stream access and caps', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let baseUrl: string;
  let wId: string;

  const auth = (actor: { secret: string }) => ({ Authorization: `Bearer ${actor.secret}` });
  const ssePath = (cId: string, workspace = wId) =>
    `/api/sse/w/${workspace}/assistant/conversations/${cId}/events`;
  const newConversation = async (actor: Actor = a.admin, spaceId?: string) =>
    (
      await api(t, actor)
        .post(`/api/w/${actor.workspace.sId}/assistant/conversations`)
        .send({ title: 'Live', ...(spaceId && { spaceId }) })
        .expect(200)
    ).body.conversation.sId as string;
  const post = async (cId: string, content: string, mentions: { configurationId: string }[] = []) =>
    api(t, a.admin)
      .post(`/api/w/${wId}/assistant/conversations/${cId}/messages`)
      .send({ content, mentions, context })
      .expect(200);
  const contents = (stream: SseConnection) =>
    stream.events
      .filter((event) => event.data.type === 'user_message_new')
      .map((event) => (event.data.message as { content: string }).content);

  beforeAll(async () => {
    // The periodic re-check is far away here: closes in these tests come from the changes themselves.
    t = await createTestApp({
      config: {
        sse: { accessRecheckMs: 600_000, maxStreamsPerKey: 2, maxStreamsPerWorkspace: 3, pollMs: 60_000 },
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
  });
  afterAll(() => t.close());

  it('caps open streams per key and per workspace with 429 rate_limit_error, and frees a slot on close', async () => {
    const streams = t.app.get(SseStreams);
    const cId = await newConversation();
    const other = await world.key(a.admin);
    const open: SseConnection[] = [];
    try {
      for (let i = 0; i < 2; i++) open.push(await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin)));
      expect(open.map((stream) => stream.status)).toEqual([200, 200]);
      const overKey = await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin));
      expect(overKey.status).toBe(429);
      const keyBody: unknown = JSON.parse(await overKey.body());
      expect(keyBody).toEqual({
        error: { type: 'rate_limit_error', message: expect.stringContaining('API key') },
      });
      expect(keyBody).toMatchApiSchema('ErrorResponse');

      open.push(await openSse(`${baseUrl}${ssePath(cId)}`, auth(other)));
      expect(open[2].status).toBe(200);
      const overWorkspace = await openSse(`${baseUrl}${ssePath(cId)}`, auth(other));
      expect(overWorkspace.status).toBe(429);
      const workspaceBody: unknown = JSON.parse(await overWorkspace.body());
      expect(workspaceBody).toEqual({
        error: { type: 'rate_limit_error', message: expect.stringContaining('workspace') },
      });
      expect(workspaceBody).toMatchApiSchema('ErrorResponse');
      expect(streams.count).toBe(3);

      // Another workspace is not held up by this one's streams.
      const elsewhere = await openSse(
        `${baseUrl}${ssePath(await newConversation(b.admin), b.workspace.sId)}`,
        auth(b.admin),
      );
      expect(elsewhere.status).toBe(200);
      elsewhere.close();

      open.shift()!.close();
      await until(() => streams.count === 2);
      open.push(await openSse(`${baseUrl}${ssePath(cId)}`, auth(a.admin)));
      expect(open[open.length - 1].status).toBe(200);
      await post(cId, 'to every open stream');
      for (const stream of open.slice(0, 3)) await stream.waitForEvents(1);
    } finally {
      for (const stream of open) stream.close();
      await until(() => streams.count === 0);
    }
  });

  it('closes a stream when its key is revoked, and sends nothing after', async () => {
    const key = await world.key(a.admin);
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(key));
    try {
      await post(cId, 'before');
      await stream.waitForEvents(1);
      const revoked = await api(t, a.admin).delete(`/api/w/${wId}/keys/${key.keyId}`).expect(200);
      expect(revoked.body).toMatchApiSchema('ApiKeyResponse');
      await post(cId, 'after');
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
    } finally {
      stream.close();
    }
  });

  it('closes the streams of a member removed from the workspace, and sends nothing after', async () => {
    const leaver = await world.member(a.workspace, 'user');
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(leaver));
    try {
      await post(cId, 'before');
      await stream.waitForEvents(1);
      const removed = await api(t, a.admin).delete(`/api/w/${wId}/members/${leaver.user.sId}`).expect(200);
      expect(removed.body).toMatchApiSchema('MemberResponse');
      await post(cId, 'after');
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
    } finally {
      stream.close();
    }
  });

  it('closes a stream on another process when its key is revoked', async () => {
    const other = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      config: { sse: { accessRecheckMs: 600_000 } },
    });
    const otherUrl = await other.listen();
    const key = await world.key(a.admin);
    const cId = await newConversation();
    const stream = await openSse(`${otherUrl}${ssePath(cId)}`, auth(key));
    try {
      await post(cId, 'before');
      await stream.waitForEvents(1);
      await api(t, a.admin).delete(`/api/w/${wId}/keys/${key.keyId}`).expect(200);
      await post(cId, 'after');
      // Well before the 4 s key cache of the other process expires.
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
    } finally {
      stream.close();
      await other.close();
    }
  });

  it("closes a member's stream when the member is removed from the conversation's space", async () => {
    const member = await world.member(a.workspace, 'user');
    const space = await api(t, a.admin)
      .post(`/api/w/${wId}/spaces`)
      .send({ name: `Team ${Date.now()}`, memberIds: [a.admin.user.sId, member.user.sId] })
      .expect(200);
    const spaceId = space.body.space.sId as string;
    const cId = await newConversation(a.admin, spaceId);
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(member));
    // Another member of the space keeps its stream.
    const admin = await openSse(`${baseUrl}${ssePath(cId)}`, auth(await world.key(a.admin)));
    try {
      expect(stream.status).toBe(200);
      await post(cId, 'before');
      await stream.waitForEvents(1);
      await api(t, a.admin).delete(`/api/w/${wId}/spaces/${spaceId}/members/${member.user.sId}`).expect(200);
      await post(cId, 'after');
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
      await admin.waitForEvents(2);
      expect(contents(admin)).toEqual(['before', 'after']);
    } finally {
      stream.close();
      admin.close();
    }
  });

  it("closes a member's stream when the conversation comes to need a space the member lacks", async () => {
    const member = await world.member(a.workspace, 'user');
    const { agentSId } = await world.agentNeedingSpace(a.admin);
    const cId = await newConversation();
    const stream = await openSse(`${baseUrl}${ssePath(cId)}`, auth(member));
    try {
      await post(cId, 'open to all');
      await stream.waitForEvents(1);
      await post(cId, 'for the vault', [{ configurationId: agentSId }]);
      await endsWithin(stream, 2_000);
      expect(stream.events.map((event) => event.data.type)).toEqual(['user_message_new']);
      expect(contents(stream)).toEqual(['open to all']);
    } finally {
      stream.close();
    }
  });

  it('re-checks every stream periodically, with the membership as it is now', async () => {
    const periodic = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      config: { sse: { accessRecheckMs: 300 } },
    });
    const periodicUrl = await periodic.listen();
    const member = await world.member(a.workspace, 'user');
    const stayer = await world.member(a.workspace, 'user');
    const cId = await newConversation();
    const leaving = await openSse(`${periodicUrl}${ssePath(cId)}`, auth(member));
    const staying = await openSse(`${periodicUrl}${ssePath(cId)}`, auth(stayer));
    try {
      await post(cId, 'before');
      await leaving.waitForEvents(1);
      // A change no process announces: the member's row is gone, its key is not revoked.
      await t.dataSource.query('DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
        a.workspace.id,
        member.user.id,
      ]);
      await endsWithin(leaving, 3_000);
      await post(cId, 'after');
      await staying.waitForEvents(2);
      expect(contents(staying)).toEqual(['before', 'after']);
      expect(contents(leaving)).toEqual(['before']);
    } finally {
      leaving.close();
      staying.close();
      await periodic.close();
    }
  });
});

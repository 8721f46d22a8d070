import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { SseStreams } from 'src/platform/http/sse-streams';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { SseConnection, endsWithin, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { untilTrue } from 'test/support/until';
import { World, WorkspaceFixture, api } from 'test/support/world';

describe('event stream access and caps', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let baseUrl: string;
  let wId: string;

  const auth = (actor: { secret: string }) => ({ Authorization: `Bearer ${actor.secret}` });
  const contents = (stream: SseConnection) =>
    stream.events
      .filter((event) => event.data.type === 'user_message_new')
      .map((event) => (event.data.message as { content: string }).content);

  beforeAll(async () => {
    // The periodic re-check is far away here: closes in these tests come from the changes themselves.
    t = await createTestApp({
      env: {
        SSE_ACCESS_RECHECK_MS: 600_000,
        SSE_MAX_KEY_STREAMS: 2,
        SSE_MAX_WORKSPACE_STREAMS: 3,
        SSE_POLL_MS: 60_000,
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
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const other = await world.key(a.admin);
    const open: SseConnection[] = [];
    try {
      for (let i = 0; i < 2; i++)
        open.push(await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin)));
      expect(open.map((stream) => stream.status)).toEqual([200, 200]);
      const overKey = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin));
      expect(overKey.status).toBe(429);
      const keyBody: unknown = JSON.parse(await overKey.body());
      expect(keyBody).toEqual({
        error: { type: 'rate_limit_error', message: expect.stringContaining('API key') },
      });
      expect(keyBody).toMatchApiSchema('ErrorResponse');

      open.push(await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(other)));
      expect(open[2].status).toBe(200);
      const overWorkspace = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(other));
      expect(overWorkspace.status).toBe(429);
      const workspaceBody: unknown = JSON.parse(await overWorkspace.body());
      expect(workspaceBody).toEqual({
        error: { type: 'rate_limit_error', message: expect.stringContaining('workspace') },
      });
      expect(workspaceBody).toMatchApiSchema('ErrorResponse');
      expect(streams.count).toBe(3);

      // Another workspace is not held up by this one's streams.
      const elsewhere = await openSse(
        `${baseUrl}${paths.stream(b.workspace.sId, (await world.conversation(b.admin, { title: 'Live' })).sId)}`,
        auth(b.admin),
      );
      expect(elsewhere.status).toBe(200);
      elsewhere.close();

      open.shift()!.close();
      await untilTrue(() => streams.count === 2);
      open.push(await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(a.admin)));
      expect(open[open.length - 1].status).toBe(200);
      await world.message(a.admin, cId, 'to every open stream');
      for (const stream of open.slice(0, 3)) await stream.waitForEvents(1);
    } finally {
      for (const stream of open) stream.close();
      await untilTrue(() => streams.count === 0);
    }
  });

  it('closes a stream when its key is revoked, and sends nothing after', async () => {
    const key = await world.key(a.admin);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(key));
    try {
      await world.message(a.admin, cId, 'before');
      await stream.waitForEvents(1);
      const revoked = await api(t, a.admin).delete(paths.key(wId, key.keyId)).expect(200);
      expect(revoked.body).toMatchApiSchema('ApiKeyResponse');
      await world.message(a.admin, cId, 'after');
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
    } finally {
      stream.close();
    }
  });

  it('closes the streams of a member removed from the workspace, and sends nothing after', async () => {
    const leaver = await world.member(a.workspace, 'user');
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(leaver));
    try {
      await world.message(a.admin, cId, 'before');
      await stream.waitForEvents(1);
      const removed = await api(t, a.admin).delete(paths.member(wId, leaver.user.sId)).expect(200);
      expect(removed.body).toMatchApiSchema('MemberResponse');
      await world.message(a.admin, cId, 'after');
      await endsWithin(stream, 2_000);
      expect(contents(stream)).toEqual(['before']);
    } finally {
      stream.close();
    }
  });

  it('closes a stream on another process when its key is revoked', async () => {
    const other = await createTestApp({
      databaseUrl: t.config.databaseUrl!,
      env: { SSE_ACCESS_RECHECK_MS: 600_000 },
    });
    const otherUrl = await other.listen();
    const key = await world.key(a.admin);
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${otherUrl}${paths.stream(wId, cId)}`, auth(key));
    try {
      await world.message(a.admin, cId, 'before');
      await stream.waitForEvents(1);
      await api(t, a.admin).delete(paths.key(wId, key.keyId)).expect(200);
      await world.message(a.admin, cId, 'after');
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
    const { sId: spaceId } = await world.space(a.admin, { members: [a.admin, member] });
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live', spaceId });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(member));
    // Another member of the space keeps its stream.
    const admin = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(await world.key(a.admin)));
    try {
      expect(stream.status).toBe(200);
      await world.message(a.admin, cId, 'before');
      await stream.waitForEvents(1);
      await api(t, a.admin)
        .delete(paths.spaceMember(wId, spaceId, member.user.sId))
        .expect(200);
      await world.message(a.admin, cId, 'after');
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
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(member));
    try {
      await world.message(a.admin, cId, 'open to all');
      await stream.waitForEvents(1);
      await world.message(a.admin, cId, 'for the vault', { mentions: [agentSId] });
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
      env: { SSE_ACCESS_RECHECK_MS: 300 },
    });
    const periodicUrl = await periodic.listen();
    const member = await world.member(a.workspace, 'user');
    const stayer = await world.member(a.workspace, 'user');
    const { sId: cId } = await world.conversation(a.admin, { title: 'Live' });
    const leaving = await openSse(`${periodicUrl}${paths.stream(wId, cId)}`, auth(member));
    const staying = await openSse(`${periodicUrl}${paths.stream(wId, cId)}`, auth(stayer));
    try {
      await world.message(a.admin, cId, 'before');
      await leaving.waitForEvents(1);
      // A change no process announces: the member's row is gone, its key is not revoked.
      await t.dataSource.query('DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2', [
        a.workspace.id,
        member.user.id,
      ]);
      await endsWithin(leaving, 3_000);
      await world.message(a.admin, cId, 'after');
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

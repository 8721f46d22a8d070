import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

interface Action {
  sId: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

const context = { username: 'grace', timezone: 'Europe/Paris' };

describe('removing a member', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let assistant: string;
  let mcp: McpTestServer;
  const path = (suffix: string) => `/api/w/${a.workspace.sId}${suffix}`;
  const member = (userSId: string) => path(`/members/${userSId}`);

  const memberSIds = async () =>
    (
      (await api(t, a.admin).get(path('/members')).expect(200)).body.members as { user: { sId: string } }[]
    ).map((m) => m.user.sId);

  beforeAll(async () => {
    mcp = await startMcpTestServer();
    t = await createTestApp({
      env: {
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 4,
        TOOL_APPROVAL_TIMEOUT_MS: 60_000,
        TOOL_APPROVAL_POLL_MS: 100,
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    assistant = (await world.globalAgents(a)).assistant;
  });
  afterAll(async () => {
    await t.close();
    await mcp.stop();
  });

  it('revokes their keys at once, cancels their wake-ups, leaves their spaces and keeps their messages', async () => {
    const leaver = await world.member(a.workspace, 'builder');
    const secondKey = await world.key(leaver, ['read:conversation']);
    const space = await world.space(a.admin, { name: 'Ops', members: [leaver, a.admin] });
    const { sId: cId } = await world.conversation(leaver, { title: 'Plans' });
    const posted = await world.message(leaver, cId, 'Notes for later', { context });
    const wakeUp = await world.wakeUp(leaver, cId, { agent: assistant, reason: 'Follow up' });
    const { sId: agentSId } = await world.agent(leaver, {
      name: 'leavers-agent',
      description: 'Drafts replies',
    });
    await api(t, leaver).get(path('/me')).expect(200);

    const res = await api(t, a.admin).delete(member(leaver.user.sId)).expect(200);
    expect(res.body).toMatchApiSchema('MemberResponse');
    expect(res.body.member).toMatchObject({ user: { sId: leaver.user.sId }, role: 'builder' });

    for (const key of [leaver, secondKey]) {
      expectError(await api(t, key).get(path('/me')), 401, 'invalid_api_key_error');
    }
    const keys = await t.dataSource.query<{ revoked_at: Date | null }[]>(
      'SELECT revoked_at FROM api_keys WHERE user_id = $1 AND workspace_id = $2',
      [leaver.user.id, a.workspace.id],
    );
    expect(keys).toHaveLength(2);
    expect(keys.every((key) => key.revoked_at instanceof Date)).toBe(true);
    expect(await memberSIds()).not.toContain(leaver.user.sId);

    const wakeUps = await api(t, a.admin)
      .get(path(`/assistant/conversations/${cId}/wakeups`))
      .expect(200);
    expect(wakeUps.body).toMatchApiSchema('WakeUpsResponse');
    expect(wakeUps.body.wakeUps).toEqual([
      expect.objectContaining({ sId: wakeUp.sId, status: 'cancelled', owner: leaver.user.sId }),
    ]);
    const events = await t.dataSource.query<{ payload: { wakeUp: { status: string } } }[]>(
      "SELECT payload FROM conversation_events WHERE type = 'wake_up_updated' AND workspace_id = $1 ORDER BY id",
      [a.workspace.id],
    );
    expect(events.map((event) => event.payload.wakeUp.status)).toEqual(['scheduled', 'cancelled']);

    const messages = await api(t, a.admin)
      .get(path(`/assistant/conversations/${cId}/messages`))
      .expect(200);
    expect(messages.body).toMatchApiSchema('MessagesResponse');
    expect(messages.body.messages).toEqual([
      expect.objectContaining({
        sId: posted.sId,
        content: 'Notes for later',
        user: posted.user,
      }),
    ]);
    expect(messages.body.messages[0].user).toMatchObject({
      sId: leaver.user.sId,
      fullName: leaver.user.fullName,
    });

    const spaces = await api(t, a.admin).get(path('/spaces')).expect(200);
    const ops = (spaces.body.spaces as { sId: string; memberIds: string[] }[]).find(
      (s) => s.sId === space.sId,
    )!;
    expect(ops.memberIds).toEqual([a.admin.user.sId]);

    expectError(await api(t, a.admin).delete(member(leaver.user.sId)), 404, 'user_not_found');
    expectError(
      await api(t, a.admin).patch(member(leaver.user.sId)).send({ role: 'admin' }),
      404,
      'user_not_found',
    );

    // Back as a new member: the old keys stay revoked, and the old spaces are not given back.
    const back = await api(t, a.admin)
      .post(path('/members'))
      .send({ email: leaver.user.email, fullName: leaver.user.fullName, role: 'user' })
      .expect(200);
    expect(back.body.member).toMatchObject({ user: { sId: leaver.user.sId }, role: 'user' });
    expectError(await api(t, leaver).get(path('/me')), 401, 'invalid_api_key_error');
    const returning = await world.key(leaver);
    const seen = await api(t, returning).get(path('/spaces')).expect(200);
    expect((seen.body.spaces as { name: string }[]).map((s) => s.name)).toEqual(['Company Data']);
    const edit = await api(t, returning)
      .patch(`/api/v1/w/${a.workspace.sId}/assistant/agent_configurations/${agentSId}`)
      .send({ instructions: 'Be verbose.' });
    expectError(edit, 403, 'workspace_auth_error');
    const described = await api(t, a.admin)
      .get(path(`/assistant/agent_configurations/${agentSId}`))
      .expect(200);
    expect(described.body).toMatchApiSchema('AgentConfigurationResponse');
    expect(described.body.agentConfiguration.editors).toEqual([]);
  });

  it('is for admins holding the admin scope, within their workspace', async () => {
    const target = await world.member(a.workspace, 'user');
    const builder = await world.member(a.workspace, 'builder');
    expectError(await api(t, builder).delete(member(target.user.sId)), 403, 'workspace_auth_error');
    const narrowAdmin = await world.key(a.admin, ['read:conversation', 'write:conversation']);
    expectError(await api(t, narrowAdmin).delete(member(target.user.sId)), 403, 'insufficient_key_scope');
    for (const userSId of [b.admin.user.sId, 'noSuchUser1']) {
      expectError(await api(t, a.admin).delete(member(userSId)), 404, 'user_not_found');
    }
    await api(t, b.admin).get(`/api/w/${b.workspace.sId}/me`).expect(200);
    await api(t, target).get(path('/me')).expect(200);
    expect(await memberSIds()).toContain(target.user.sId);

    const operation = (
      t.document.paths['/api/w/{wId}/members/{userId}'] as Record<string, Record<string, unknown>>
    ).delete;
    expect(operation).toMatchObject({
      summary: expect.any(String),
      description: expect.any(String),
      'x-required-scopes': ['admin'],
      'x-required-roles': ['admin'],
      responses: expect.objectContaining({
        200: expect.anything(),
        403: expect.anything(),
        404: expect.anything(),
      }),
    });
  });

  it('never removes the last admin, even when two admins remove each other at once', async () => {
    expectError(await api(t, a.admin).delete(member(a.admin.user.sId)), 403, 'workspace_auth_error');
    await api(t, a.admin).get(path('/me')).expect(200);

    // A workspace of its own: either admin may be the one removed, and the later cases act as `a`'s.
    const c = await world.workspace();
    const inC = (suffix: string) => `/api/w/${c.workspace.sId}${suffix}`;
    const second = await world.member(c.workspace, 'admin');
    const answers = await Promise.all([
      api(t, c.admin).delete(inC(`/members/${second.user.sId}`)),
      api(t, second).delete(inC(`/members/${c.admin.user.sId}`)),
    ]);
    const statuses = answers.map((res) => res.status).sort();
    // One removal wins; the other is refused, or finds its caller's key revoked by the first.
    expect(statuses[0]).toBe(200);
    expect([401, 403]).toContain(statuses[1]);
    const admins = (
      (
        await api(t, answers[0].status === 200 ? c.admin : second)
          .get(inC('/members'))
          .expect(200)
      ).body.members as { role: string }[]
    ).filter((m) => m.role === 'admin');
    expect(admins).toHaveLength(1);
  });

  it('declines the tool calls waiting for their approval: an approval after the removal runs nothing', async () => {
    const wId = a.workspace.sId;
    const server = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'records', url: mcp.url, description: 'Test tools' })
      .expect(200);
    await api(t, a.admin)
      .post(paths.toolServerViews(wId, await world.globalSpace(a.admin)))
      .send({ mcpServerId: server.body.mcpServer.sId, requireApproval: ['delete_record'] })
      .expect(200);
    const agent = await world.agent(a.admin, {
      instructions: 'Use your tools.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'records', mcpServerName: 'records' }],
    });
    const leaver = await world.member(a.workspace, 'user');
    const { sId: cId } = await world.conversation(leaver, {
      message: '/tool records__delete_record {"id": "rec_left"}',
      mentions: [agent.sId],
    });
    const waiting = await until(
      async () =>
        (await world.messages(a.admin, cId)).find((m) => m.type === 'agent_message') as AgentMessage,
      (found) => found?.actions?.some((action) => action.status === 'blocked_validation_required') === true,
    );
    const action = waiting.actions[0];

    await api(t, a.admin).delete(member(leaver.user.sId)).expect(200);

    const approval = await api(t, a.admin)
      .post(`${paths.message(wId, cId, waiting.sId)}/validate-action`)
      .send({ actionId: action.sId, approved: 'approved' });
    expectError(approval, 409, 'conflict');
    const settled = (await world.settled(a.admin, cId)).find((m) => m.sId === waiting.sId) as AgentMessage;
    expect(settled.status).toBe('succeeded');
    expect(settled.actions).toEqual([
      expect.objectContaining({
        sId: action.sId,
        status: 'denied',
        output: [{ type: 'text', text: expect.stringContaining('left the workspace') }],
      }),
    ]);
    expect(mcp.calls.filter((call) => call.args.id === 'rec_left')).toEqual([]);
    const blocked = await api(t, a.admin)
      .get(`${paths.conversation(wId, cId)}/actions/blocked`)
      .expect(200);
    expect(blocked.body.blockedActions).toEqual([]);
  });
});

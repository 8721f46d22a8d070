import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface AgentBody {
  sId: string;
  id: number;
  version: number;
  name: string;
  status: string;
  instructions: string | null;
  versionAuthorId: number | null;
}

const context = { username: 'ada', timezone: 'Europe/Paris' };

describe('agent lifecycle: archive and history', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let builder: Actor;
  let otherBuilder: Actor;
  let user: Actor;
  let wId: string;

  const listed = async (actor: Actor, view: string): Promise<string[]> => {
    const res = await api(t, actor)
      .get(`${paths.agents(wId)}?view=${view}`)
      .expect(200);
    expect(res.body).toMatchApiSchema('AgentConfigurationsResponse');
    return (res.body.agentConfigurations as AgentBody[]).map((agent) => agent.sId);
  };
  const archive = (actor: Actor, sId: string, workspaceId = wId) =>
    api(t, actor).delete(paths.agent(workspaceId, sId));
  const history = (actor: Actor, sId: string, query = '', workspaceId = wId) =>
    api(t, actor).get(`${paths.agent(workspaceId, sId)}/history${query}`);
  const rows = (sId: string) =>
    t.dataSource.query<{ version: number; status: string }[]>(
      'SELECT version, status FROM agent_configurations WHERE s_id = $1 ORDER BY version',
      [sId],
    );
  const count = async (table: 'messages' | 'conversations') =>
    Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    builder = await world.member(a.workspace, 'builder');
    otherBuilder = await world.member(a.workspace, 'builder');
    user = await world.member(a.workspace, 'user');
  });
  afterAll(() => t.close());

  describe('archiving', () => {
    it('archives for an editor: it leaves every view but archived, and GET shows it archived', async () => {
      const agent = await world.agent<AgentBody>(builder);
      expect(await listed(user, 'all')).toContain(agent.sId);

      const res = await archive(builder, agent.sId).expect(200);
      expect(res.body).toEqual({ success: true });
      expect(await rows(agent.sId)).toEqual([{ version: 0, status: 'archived' }]);

      for (const view of ['all', 'list', 'published', 'workspace', 'favorites', 'global']) {
        expect(await listed(user, view)).not.toContain(agent.sId);
      }
      expect(await listed(a.admin, 'admin_internal')).not.toContain(agent.sId);
      expect(await listed(user, 'archived')).toContain(agent.sId);

      const got = await api(t, user).get(paths.agent(wId, agent.sId)).expect(200);
      expect(got.body).toMatchApiSchema('AgentConfigurationResponse');
      expect(got.body.agentConfiguration).toMatchObject({ sId: agent.sId, status: 'archived' });

      // Archiving again changes nothing and still succeeds.
      expect((await archive(a.admin, agent.sId).expect(200)).body).toEqual({ success: true });
      expect(await rows(agent.sId)).toEqual([{ version: 0, status: 'archived' }]);
    });

    it('lets an admin archive any agent, and frees its name for a new agent', async () => {
      const agent = await world.agent<AgentBody>(builder, { name: 'reusable-name' });
      await archive(a.admin, agent.sId).expect(200);
      const again = await world.agent<AgentBody>(otherBuilder, { name: 'reusable-name' });
      expect(again.sId).not.toBe(agent.sId);
      expect(again.status).toBe('active');
    });

    it('refuses members who may not edit it (403) and built-in agents, changing nothing', async () => {
      const agent = await world.agent<AgentBody>(builder);
      expectError(await archive(user, agent.sId), 403, 'workspace_auth_error');
      expectError(await archive(otherBuilder, agent.sId), 403, 'workspace_auth_error');
      const [builtIn] = (
        await api(t, a.admin)
          .get(`${paths.agents(wId)}?view=global`)
          .expect(200)
      ).body.agentConfigurations as AgentBody[];
      expectError(await archive(a.admin, builtIn.sId), 403, 'workspace_auth_error');
      expect(await rows(agent.sId)).toEqual([{ version: 0, status: 'active' }]);
      expect((await rows(builtIn.sId)).at(-1)?.status).toBe('active');
    });

    it('answers 404 for a hidden agent the caller cannot read, and needs write:agent', async () => {
      const hidden = await world.agent<AgentBody>(builder, { scope: 'hidden' });
      expectError(await archive(user, hidden.sId), 404, 'agent_configuration_not_found');
      const readOnly = await world.member(a.workspace, 'admin', ['read:agent']);
      expectError(await archive(readOnly, hidden.sId), 403, 'insufficient_key_scope');
      expect(await rows(hidden.sId)).toEqual([{ version: 0, status: 'active' }]);
    });

    it("keeps another workspace's agent out of reach (404), unchanged", async () => {
      const agent = await world.agent<AgentBody>(builder);
      expectError(await archive(b.admin, agent.sId, b.workspace.sId), 404, 'agent_configuration_not_found');
      expectError(
        await history(b.admin, agent.sId, '', b.workspace.sId),
        404,
        'agent_configuration_not_found',
      );
      expectError(await archive(b.admin, agent.sId), 401, 'workspace_auth_error');
      expect(await rows(agent.sId)).toEqual([{ version: 0, status: 'active' }]);
    });

    it('refuses a mention of an archived agent with 404, writing nothing', async () => {
      const agent = await world.agent<AgentBody>(builder);
      const { sId: cId } = await world.conversation(user, { title: 'Mentions' });
      await archive(builder, agent.sId).expect(200);
      const before = { messages: await count('messages'), conversations: await count('conversations') };

      const posted = await api(t, user)
        .post(paths.messages(wId, cId))
        .send({ content: 'Are you there?', mentions: [{ configurationId: agent.sId }], context });
      expectError(posted, 404, 'agent_configuration_not_found');
      const created = await api(t, user)
        .post(paths.conversations(wId))
        .send({ message: { content: 'Hello', mentions: [{ configurationId: agent.sId }], context } });
      expectError(created, 404, 'agent_configuration_not_found');

      expect({ messages: await count('messages'), conversations: await count('conversations') }).toEqual(
        before,
      );
      expect(await world.messages(user, cId)).toEqual([]);
    });

    it('answers a PATCH of an archived agent with 409, writing no version', async () => {
      const agent = await world.agent<AgentBody>(builder);
      await archive(builder, agent.sId).expect(200);
      expectError(
        await api(t, builder).patch(paths.agentUpdate(wId, agent.sId)).send({ instructions: 'Be long.' }),
        409,
        'conflict',
      );
      expectError(
        await api(t, user).patch(paths.agentUpdate(wId, agent.sId)).send({ userFavorite: true }),
        409,
        'conflict',
      );
      expect(await rows(agent.sId)).toEqual([{ version: 0, status: 'archived' }]);
    });
  });

  describe('history', () => {
    it('lists every version newest first, in the private form, limit honoured', async () => {
      const agent = await world.agent<AgentBody>(builder, { instructions: 'Version zero.' });
      for (const instructions of ['Version one.', 'Version two.']) {
        await api(t, builder).patch(paths.agentUpdate(wId, agent.sId)).send({ instructions }).expect(200);
      }

      const res = await history(user, agent.sId).expect(200);
      expect(res.body).toMatchApiSchema('AgentHistoryResponse');
      const versions = res.body.history as AgentBody[];
      expect(
        versions.map(({ version, status, instructions }) => ({ version, status, instructions })),
      ).toEqual([
        { version: 2, status: 'active', instructions: 'Version two.' },
        { version: 1, status: 'archived', instructions: 'Version one.' },
        { version: 0, status: 'archived', instructions: 'Version zero.' },
      ]);
      expect(new Set(versions.map((version) => version.sId))).toEqual(new Set([agent.sId]));
      expect(new Set(versions.map((version) => version.id)).size).toBe(3);

      const limited = await history(user, agent.sId, '?limit=1').expect(200);
      expect((limited.body.history as AgentBody[]).map((version) => version.version)).toEqual([2]);
      for (const limit of ['0', '101', 'many']) {
        expectError(await history(user, agent.sId, `?limit=${limit}`), 400, 'invalid_request_error');
      }
    });

    it('still answers for an archived agent, and 404 for one the caller cannot read', async () => {
      const agent = await world.agent<AgentBody>(builder);
      await archive(builder, agent.sId).expect(200);
      const res = await history(user, agent.sId).expect(200);
      expect((res.body.history as AgentBody[]).map(({ version, status }) => ({ version, status }))).toEqual([
        { version: 0, status: 'archived' },
      ]);

      const hidden = await world.agent<AgentBody>(builder, { scope: 'hidden' });
      expectError(await history(user, hidden.sId), 404, 'agent_configuration_not_found');
      expect((await history(builder, hidden.sId).expect(200)).body.history).toHaveLength(1);
      expectError(await history(user, 'NoSuchAgnt'), 404, 'agent_configuration_not_found');
    });
  });
});

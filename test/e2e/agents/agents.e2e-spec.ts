import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Client } from 'pg';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface AgentBody {
  sId: string;
  id: number;
  version: number;
  name: string;
  scope: string;
  status: string;
  instructions: string | null;
  userFavorite: boolean;
  canEdit: boolean;
  canRead: boolean;
  tags: { sId: string; name: string }[];
  editors?: { sId: string; fullName: string; image: string }[];
  lastAuthors?: string[];
  requestedSpaceIds: string[];
}

const model = { providerId: 'local', modelId: 'local-1', temperature: 0.3 };

describe('agent configurations', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let builder: Actor;
  let user: Actor;
  let wId: string;

  const list = async (actor: Actor, query = ''): Promise<AgentBody[]> => {
    const res = await api(t, actor)
      .get(`${paths.agents(wId)}${query}`)
      .expect(200);
    expect(res.body).toMatchApiSchema('AgentConfigurationsResponse');
    return res.body.agentConfigurations as AgentBody[];
  };

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    builder = await world.member(a.workspace, 'builder');
    user = await world.member(a.workspace, 'user');
  });
  afterAll(() => t.close());

  it('gives every workspace its built-in agents', async () => {
    const globals = await list(user, '?view=global');
    expect(globals.map((agent) => agent.name).sort()).toEqual(['assistant', 'summarizer']);
    expect(globals.every((agent) => agent.scope === 'global' && agent.status === 'active')).toBe(true);
    expect(globals.every((agent) => !agent.canEdit && agent.canRead)).toBe(true);
  });

  it('creates, lists, updates to a new version and archives the old one', async () => {
    const created = await world.agent<AgentBody>(builder, { tags: [{ name: 'Support' }] });
    expect(created).toMatchObject({ version: 0, status: 'active', scope: 'visible', canEdit: true });
    expect(created.tags.map((tag) => tag.name)).toEqual(['Support']);
    expect(created.sId).toMatch(/^[0-9A-Za-z]{10}$/);

    const listed = (await list(user)).find((agent) => agent.sId === created.sId);
    expect(listed).toMatchObject({ id: created.id, version: 0, canEdit: false });

    const skill = await api(t, builder)
      .post(`/api/w/${wId}/skills`)
      .send({ name: 'Triage', description: 'x' })
      .expect(200);
    expect(skill.body).toMatchApiSchema('SkillResponse');
    const res = await api(t, builder)
      .patch(paths.agentUpdate(wId, created.sId))
      .send({
        agent: { handle: `${created.name}-v2`, description: 'Better', max_steps_per_run: 4 },
        instructions: 'Be very brief.',
        generation_settings: { temperature: 0.9, reasoning_effort: 'high' },
        tags: [{ name: 'Support' }, { name: 'Billing', kind: 'standard' }],
        editors: [{ email: user.user.email }],
        skills: [{ sId: skill.body.skill.sId, name: 'Triage' }],
        toolset: [{ name: 'Ask', type: 'MCP', configuration: { mcp_server_name: 'run_agent' } }],
      })
      .expect(200);
    expect(res.body).toMatchApiSchema('UpdatedAgentConfigurationResponse');
    expect(res.body.skippedActions).toEqual([]);
    expect(res.body.agentConfiguration).toMatchObject({
      sId: created.sId,
      version: 1,
      name: `${created.name}-v2`,
      description: 'Better',
      instructions: 'Be very brief.',
      maxStepsPerRun: 4,
      versionAuthorId: builder.user.sId,
      model: { providerId: 'local', modelId: 'local-1', temperature: 0.9 },
      actions: [expect.objectContaining({ name: 'Ask', mcpServerName: 'run_agent', internal: true })],
    });
    expect(res.body.agentConfiguration.id).not.toBe(created.id);

    const after = (await list(user, '?withEditors=true&withAuthors=true')).filter(
      (x) => x.sId === created.sId,
    );
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ version: 1, canEdit: true, lastAuthors: [builder.user.fullName] });
    expect(after[0].tags.map((tag) => tag.name).sort()).toEqual(['Billing', 'Support']);
    expect(after[0].editors?.map((editor) => editor.sId).sort()).toEqual(
      [builder.user.sId, user.user.sId].sort(),
    );

    const rows = await t.dataSource.query<{ version: number; status: string }[]>(
      'SELECT version, status FROM agent_configurations WHERE s_id = $1 ORDER BY version',
      [created.sId],
    );
    expect(rows).toEqual([
      { version: 0, status: 'archived' },
      { version: 1, status: 'active' },
    ]);
    const single = await api(t, user).get(paths.agent(wId, created.sId)).expect(200);
    expect(single.body).toMatchApiSchema('AgentConfigurationResponse');
    expect(single.body.agentConfiguration.version).toBe(1);
  });

  it('toggles a favourite and changes editors without writing a version', async () => {
    const agent = await world.agent<AgentBody>(builder);
    await api(t, user).patch(paths.agentUpdate(wId, agent.sId)).send({ userFavorite: true }).expect(200);
    await api(t, builder)
      .patch(paths.agentUpdate(wId, agent.sId))
      .send({ editors: [{ user_id: user.user.sId }] })
      .expect(200);
    const rows = await t.dataSource.query('SELECT version FROM agent_configurations WHERE s_id = $1', [
      agent.sId,
    ]);
    expect(rows).toEqual([{ version: 0 }]);
    const favorites = await list(user, '?view=favorites');
    expect(favorites.map((x) => x.sId)).toEqual([agent.sId]);
    expect(favorites[0].userFavorite).toBe(true);
    const [first] = await list(user, '?sort=priority');
    expect(first.sId).toBe(agent.sId);
    await api(t, user).patch(paths.agentUpdate(wId, agent.sId)).send({ userFavorite: false }).expect(200);
    expect(await list(user, '?view=favorites')).toEqual([]);
  });

  describe('toolsets', () => {
    let sales: string;
    beforeAll(async () => {
      sales = (await world.space(a.admin, { name: 'Sales', members: [a.admin] })).sId;
      const global = await world.globalSpace(a.admin);
      await world.toolServer(a.admin, { name: 'Wiki', spaceIds: [global] });
      await world.toolServer(a.admin, { name: 'CRM', spaceIds: [sales] });
      await world.toolServer(a.admin, { name: 'Twin', spaceIds: [global] });
      await world.toolServer(a.admin, { name: 'Twin', spaceIds: [global] });
    });

    it('applies what resolves and lists what does not, without failing', async () => {
      const agent = await world.agent<AgentBody>(builder);
      const res = await api(t, builder)
        .patch(paths.agentUpdate(wId, agent.sId))
        .send({
          toolset: [
            { name: 'later', type: 'MCP', configuration: { mcp_server_name: 'wake_ups' } },
            { name: 'tables', type: 'MCP', configuration: { mcp_server_name: 'query_tables' } },
            { name: 'wiki', type: 'MCP', configuration: { mcp_server_name: 'Wiki' } },
            { name: 'crm', type: 'MCP', configuration: { mcp_server_name: 'CRM' } },
            { name: 'ghost', type: 'MCP', configuration: { mcp_server_name: 'Ghost' } },
            { name: 'twin', type: 'MCP', configuration: { mcp_server_name: 'Twin' } },
          ],
        })
        .expect(200);
      expect(res.body).toMatchApiSchema('UpdatedAgentConfigurationResponse');
      const actions = res.body.agentConfiguration.actions as { name: string; internal: boolean }[];
      expect(actions.map((action) => [action.name, action.internal])).toEqual([
        ['later', true],
        ['wiki', false],
      ]);
      expect(res.body.skippedActions).toEqual([
        {
          name: 'tables',
          reason:
            'The internal tool server "query_tables" is not configured on this service (not_configured).',
        },
        { name: 'crm', reason: expect.stringContaining('not shared') },
        { name: 'ghost', reason: expect.stringContaining('No tool server') },
        { name: 'twin', reason: expect.stringContaining('ambiguous') },
      ]);
    });

    it('resolves a server shared to a space the caller belongs to, and records the space', async () => {
      const agent = await world.agent<AgentBody>(a.admin);
      const res = await api(t, a.admin)
        .patch(paths.agentUpdate(wId, agent.sId))
        .send({ toolset: [{ name: 'crm', type: 'MCP', configuration: { mcp_server_name: 'CRM' } }] })
        .expect(200);
      expect(res.body.skippedActions).toEqual([]);
      const [listed] = (await list(a.admin)).filter((x) => x.sId === agent.sId);
      expect(listed.requestedSpaceIds).toEqual([sales]);
      // A member outside that space sees the agent but cannot read its instructions.
      const seen = (await list(user)).find((x) => x.sId === agent.sId)!;
      expect(seen).toMatchObject({ canRead: false, instructions: null });
    });

    it('answers 404 to a PATCH on an agent the caller cannot read, revealing and changing nothing', async () => {
      const restricted = await world.agent<AgentBody>(a.admin);
      await api(t, a.admin)
        .patch(paths.agentUpdate(wId, restricted.sId))
        .send({ toolset: [{ name: 'crm', type: 'MCP', configuration: { mcp_server_name: 'CRM' } }] })
        .expect(200);
      const hidden = await world.agent<AgentBody>(builder, { scope: 'hidden' });
      const favorites = () =>
        t.dataSource.query('SELECT agent_s_id FROM agent_favorites WHERE user_id = $1', [user.user.id]);
      const before = await favorites();
      for (const body of [{ userFavorite: true }, { userFavorite: true, instructions: 'Leak.' }]) {
        for (const agent of [restricted, hidden]) {
          const res = await api(t, user).patch(paths.agentUpdate(wId, agent.sId)).send(body);
          expect({ status: res.status, body: res.body }).toEqual({
            status: 404,
            body: { error: { type: 'agent_configuration_not_found', message: expect.any(String) } },
          });
          expect(res.body).toMatchApiSchema('ErrorResponse');
          expect(JSON.stringify(res.body)).not.toContain(sales);
        }
      }
      expect(await favorites()).toEqual(before);
      const own = await api(t, a.admin)
        .patch(paths.agentUpdate(wId, restricted.sId))
        .send({ userFavorite: true })
        .expect(200);
      expect(own.body).toMatchApiSchema('UpdatedAgentConfigurationResponse');
      expect(own.body.agentConfiguration.userFavorite).toBe(true);
    });
  });

  describe('views and flags', () => {
    let hidden: AgentBody;
    let draft: AgentBody;
    beforeAll(async () => {
      hidden = await world.agent<AgentBody>(builder, { scope: 'hidden', name: 'zz-hidden' });
      draft = await world.agent<AgentBody>(builder, { status: 'draft', name: 'zz-draft' });
    });

    it('filters by view', async () => {
      const names = (agents: AgentBody[]) => agents.map((agent) => agent.sId);
      const all = await list(user);
      expect(names(all)).not.toContain(hidden.sId);
      expect(names(all)).not.toContain(draft.sId);
      expect(all.some((agent) => agent.scope === 'global')).toBe(true);

      const builderList = await list(builder, '?view=list');
      expect(names(builderList)).toEqual(expect.arrayContaining([hidden.sId, draft.sId]));
      expect(names(await list(user, '?view=list'))).not.toContain(hidden.sId);

      const published = await list(user, '?view=published');
      expect(published.every((agent) => agent.scope === 'visible')).toBe(true);
      expect(names(await list(user, '?view=workspace'))).toEqual(names(published));

      const forbidden = await api(t, user)
        .get(`${paths.agents(wId)}?view=admin_internal`)
        .expect(403);
      expect(forbidden.body.error.type).toBe('workspace_auth_error');
      const internal = await list(a.admin, '?view=admin_internal');
      expect(names(internal)).toEqual(expect.arrayContaining([hidden.sId, draft.sId]));
      const hiddenSeenByAdmin = internal.find((agent) => agent.sId === hidden.sId)!;
      expect(hiddenSeenByAdmin.instructions).toBe('Be brief.');
    });

    it('sorts, limits and refuses bad parameters', async () => {
      const sorted = await list(user, '?sort=alphabetical');
      const sortedNames = sorted.map((agent) => agent.name.toLowerCase());
      expect(sortedNames).toEqual([...sortedNames].sort((x, y) => x.localeCompare(y, 'en')));
      expect(await list(user, '?limit=2')).toHaveLength(2);
      expect(await list(user, '?limit=0')).toEqual([]);
      for (const query of [
        '?limit=101',
        '?limit=-1',
        '?limit=abc',
        '?view=mine',
        '?sort=random',
        '?color=red',
      ]) {
        const res = await api(t, user)
          .get(`${paths.agents(wId)}${query}`)
          .expect(400);
        expect(res.body.error.type).toBe('invalid_request_error');
      }
    });

    it('only includes authors and editors when the flag is exactly true', async () => {
      const [plain] = await list(builder, '?withAuthors=1&withEditors=yes&limit=1');
      expect(plain.lastAuthors).toBeUndefined();
      expect(plain.editors).toBeUndefined();
    });

    it('uses a fixed number of queries whatever the number of agents', async () => {
      const count = async () => {
        let queries = 0;
        const logger = t.dataSource.logger;
        const original = logger.logQuery.bind(logger);
        logger.logQuery = (...args) => {
          queries++;
          original(...args);
        };
        try {
          await list(
            builder,
            '?view=list&withAuthors=true&withEditors=true&withUsage=true&withFeedbacks=true',
          );
        } finally {
          logger.logQuery = original;
        }
        return queries;
      };
      // Background timers (run heartbeats, rate-limit reconciliation, sweeps) share the data
      // source; they only ever add queries, so the fewest of a few requests is the list's own.
      const fewest = async () => Math.min(await count(), await count(), await count());
      const few = await fewest();
      for (let i = 0; i < 12; i++) await world.agent<AgentBody>(builder, { tags: [{ name: `t${i}` }] });
      expect(await fewest()).toBe(few);
    });
    it('lists N and 2N agents, with every flag, in the same number of SQL statements', async () => {
      // A workspace of its own: its list holds the agents made here and the two built-in ones.
      const own = await world.workspace();
      const editor = await world.member(own.workspace, 'builder');
      const path = `/api/w/${own.workspace.sId}/assistant/agent_configurations`;
      // A tool shared through a space: the page then needs the caller's spaces, whatever its size.
      await world.agentNeedingSpace(own.admin);
      let added = 0;
      const addAgents = async (count: number) => {
        for (let i = 0; i < count; i++) {
          const res = await api(t, own.admin)
            .post(path)
            .send({
              assistant: {
                name: `counted-${added++}`,
                description: '',
                instructions: 'Be brief.',
                scope: 'visible',
                model,
                tags: [{ name: `counted-${i % 3}` }],
                editors: [{ userId: editor.user.sId }],
              },
            })
            .expect(200);
          const sId = res.body.agentConfiguration.sId as string;
          // A second author and a favourite: every relation of the page has rows.
          await api(t, editor)
            .patch(`/api/v1/w/${own.workspace.sId}/assistant/agent_configurations/${sId}`)
            .send({ userFavorite: true, instructions: 'Be briefer.' })
            .expect(200);
        }
      };
      // Every statement sent to PostgreSQL, prepared (hot reads) or not, is a Client query.
      const statements = async () => {
        let sent = 0;
        const original = Client.prototype.query;
        Client.prototype.query = function (this: Client, ...args: unknown[]) {
          sent++;
          return (original as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof original;
        try {
          const res = await api(t, editor)
            .get(`${path}?view=list&withAuthors=true&withEditors=true&withUsage=true&withFeedbacks=true`)
            .expect(200);
          return { sent, listed: res.body.agentConfigurations as AgentBody[] };
        } finally {
          Client.prototype.query = original;
        }
      };
      // Background timers share the pool and only ever add statements: the fewest is the list's own.
      const fewest = async () => {
        const runs = [await statements(), await statements(), await statements()];
        return { sent: Math.min(...runs.map((run) => run.sent)), listed: runs[0].listed };
      };
      const counted = (listed: AgentBody[]) => listed.filter((agent) => agent.name.startsWith('counted-'));

      const n = 4;
      await addAgents(n);
      const forN = await fewest();
      await addAgents(n);
      const for2N = await fewest();
      expect([counted(forN.listed).length, counted(for2N.listed).length]).toEqual([n, 2 * n]);
      expect(for2N.listed).toHaveLength(2 * n + 3);
      for (const agent of counted(for2N.listed)) {
        expect(agent).toMatchObject({
          version: 1,
          userFavorite: true,
          lastAuthors: [editor.user.fullName, own.admin.user.fullName],
        });
        expect(agent.editors?.map((listed) => listed.sId).sort()).toEqual(
          [own.admin.user.sId, editor.user.sId].sort(),
        );
      }
      expect(for2N.sent).toBe(forN.sent);
    });
  });

  describe('rules', () => {
    it('lets builders and admins create, not users', async () => {
      const res = await api(t, user)
        .post(paths.agents(wId))
        .send({ assistant: { name: 'nope', description: '', instructions: '', scope: 'visible', model } })
        .expect(403);
      expect(res.body.error.type).toBe('workspace_auth_error');
    });

    it('keeps names unique among active agents', async () => {
      const first = await world.agent<AgentBody>(builder, { name: 'unique-one' });
      const res = await api(t, builder)
        .post(paths.agents(wId))
        .send({
          assistant: { name: 'UNIQUE-one', description: '', instructions: '', scope: 'visible', model },
        })
        .expect(400);
      expect(res.body.error.message).toContain('UNIQUE-one');
      const other = await world.agent<AgentBody>(builder);
      await api(t, builder)
        .patch(paths.agentUpdate(wId, other.sId))
        .send({ agent: { handle: 'unique-one' } })
        .expect(400);
      expect(first.name).toBe('unique-one');
    });

    it('refuses malformed bodies, naming the field, and writes nothing', async () => {
      const before = await t.dataSource.query('SELECT count(*) FROM agent_configurations');
      const bad: [unknown, string][] = [
        [
          { assistant: { name: 'x', description: '', instructions: '', scope: 'visible', model, extra: 1 } },
          'extra',
        ],
        [
          { assistant: { name: 'has space', description: '', instructions: '', scope: 'visible', model } },
          'name',
        ],
        [{ assistant: { name: 'x2', description: '', instructions: '', scope: 'global', model } }, 'scope'],
        [
          {
            assistant: {
              name: 'x3',
              description: '',
              instructions: '',
              scope: 'visible',
              model: { ...model, temperature: 3 },
            },
          },
          'temperature',
        ],
        [
          {
            assistant: {
              name: 'x4',
              description: '',
              instructions: '',
              scope: 'visible',
              model,
              editors: [{ email: 'ghost@example.com' }],
            },
          },
          'ghost@example.com',
        ],
        [
          {
            assistant: {
              name: 'x5',
              description: '',
              instructions: '',
              scope: 'visible',
              model,
              skills: [{ sId: 'skl_missing' }],
            },
          },
          'skl_missing',
        ],
        [{ assistant: 'text' }, 'assistant'],
        [{}, 'assistant'],
      ];
      for (const [body, field] of bad) {
        const res = await api(t, builder)
          .post(paths.agents(wId))
          .send(body as object);
        expect({ status: res.status, type: res.body.error?.type }).toEqual({
          status: 400,
          type: 'invalid_request_error',
        });
        expect(res.body.error.message).toContain(field);
      }
      const agent = await world.agent<AgentBody>(builder);
      for (const body of [
        { generation_settings: { reasoning_effort: 'extreme' } },
        { agent: { scope: 'global' } },
        { agent: { avatar_url: 'javascript:alert(1)' } },
        { toolset: [{ name: 'x', type: 'HTTP', configuration: { mcp_server_name: 'search' } }] },
        { editors: [{ user_id: 'nobody1234' }] },
      ]) {
        await api(t, builder).patch(paths.agentUpdate(wId, agent.sId)).send(body).expect(400);
      }
      const afterCount = await t.dataSource.query('SELECT count(*) FROM agent_configurations');
      expect(Number(afterCount[0].count)).toBe(Number(before[0].count) + 1);
    });

    it('lets only editors and admins update, and nobody edit a built-in agent', async () => {
      const agent = await world.agent<AgentBody>(builder);
      const res = await api(t, user)
        .patch(paths.agentUpdate(wId, agent.sId))
        .send({ instructions: 'Mine now' })
        .expect(403);
      expect(res.body.error.type).toBe('workspace_auth_error');
      await api(t, a.admin)
        .patch(paths.agentUpdate(wId, agent.sId))
        .send({ instructions: 'Admin edit' })
        .expect(200);
      const [global] = await list(user, '?view=global');
      await api(t, a.admin).patch(paths.agentUpdate(wId, global.sId)).send({ instructions: 'x' }).expect(403);
      await api(t, user).patch(paths.agentUpdate(wId, global.sId)).send({ userFavorite: true }).expect(200);
    });

    it('keeps agents inside their workspace', async () => {
      const agent = await world.agent<AgentBody>(builder);
      const foreign = await api(t, b.admin).get(paths.agents(wId)).expect(401);
      expect(foreign.body.error.type).toBe('workspace_auth_error');
      const bList = await api(t, b.admin).get(paths.agents(b.workspace.sId)).expect(200);
      expect(JSON.stringify(bList.body)).not.toContain(agent.sId);
      const notFound = await api(t, b.admin)
        .patch(paths.agentUpdate(b.workspace.sId, agent.sId))
        .send({ instructions: 'x' })
        .expect(404);
      expect(notFound.body.error.type).toBe('agent_configuration_not_found');
      await api(t, b.admin).get(paths.agent(b.workspace.sId, agent.sId)).expect(404);
    });

    it('turns 30 parallel updates into 30 consecutive versions', async () => {
      const agent = await world.agent<AgentBody>(builder);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          api(t, builder)
            .patch(paths.agentUpdate(wId, agent.sId))
            .send({ instructions: `Version ${i}` }),
        ),
      );
      expect(results.map((res) => res.status)).toEqual(Array(30).fill(200));
      const rows = await t.dataSource.query<{ version: number; status: string }[]>(
        'SELECT version, status FROM agent_configurations WHERE s_id = $1 ORDER BY version',
        [agent.sId],
      );
      expect(rows.map((row) => row.version)).toEqual(Array.from({ length: 31 }, (_, i) => i));
      expect(rows.filter((row) => row.status === 'active')).toEqual([{ version: 30, status: 'active' }]);
    });
  });
});

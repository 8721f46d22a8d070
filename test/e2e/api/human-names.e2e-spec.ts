import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Response } from 'supertest';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api, defaultContext } from 'test/support/world';

/**
 * Names that look like another or read differently from what they hold: a zero-width space (the
 * `ev-ok\u200b` beside `ev-ok`), a right-to-left override, a C1 control, an invisible tag character.
 */
const DISGUISED = ['ev-ok\u200b', '\u202eev-ok', 'ev\u0085ok', 'ev-ok\u{e0041}', 'ev\u2066-ok\u2069'];

describe('one rule for every name a member gives', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let wId: string;
  let globalSpace: string;
  let dataSourceId: string;
  let conversationId: string;
  let member: Actor;

  const count = async (table: string) =>
    Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'builder');
    globalSpace = await world.globalSpace(a.admin);
    const dataSource = await api(t, a.admin)
      .post(`/api/w/${wId}/spaces/${globalSpace}/data_sources`)
      .send({ name: 'Handbook' })
      .expect(200);
    dataSourceId = dataSource.body.dataSource.sId as string;
    conversationId = (await world.conversation(member, { title: 'Names' })).sId;
  });
  afterAll(() => t.close());

  const agentBody = (assistant: Record<string, unknown>) => ({
    assistant: {
      name: `agent-${Math.random().toString(36).slice(2, 8)}`,
      description: '',
      instructions: 'Be brief.',
      scope: 'visible',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      ...assistant,
    },
  });

  /** Where a name is taken, the field a refusal names, and the table that must stay as it was. */
  const takers: {
    what: string;
    field: string;
    table: string;
    send: (name: string) => Promise<Response>;
  }[] = [
    {
      what: "a member's full name",
      field: 'fullName',
      table: 'users',
      send: (name) =>
        api(t, a.admin)
          .post(`/api/w/${wId}/members`)
          .send({
            email: `m${Math.random().toString(36).slice(2)}@example.com`,
            fullName: name,
            role: 'user',
          }),
    },
    {
      what: "an API key's name",
      field: 'name',
      table: 'api_keys',
      send: (name) => api(t, a.admin).post(`/api/w/${wId}/keys`).send({ name }),
    },
    {
      what: "a space's name",
      field: 'name',
      table: 'spaces',
      send: (name) => api(t, a.admin).post(paths.spaces(wId)).send({ name }),
    },
    {
      what: "a remote tool server's name",
      field: 'name',
      table: 'remote_mcp_servers',
      send: (name) =>
        api(t, a.admin).post(paths.toolServers(wId)).send({ name, url: 'https://mcp.example.com/mcp' }),
    },
    {
      what: "a skill's name",
      field: 'name',
      table: 'skills',
      send: (name) => api(t, a.admin).post(`/api/w/${wId}/skills`).send({ name, description: '' }),
    },
    {
      what: "an agent's tag",
      field: 'assistant.tags.0.name',
      table: 'tags',
      send: (name) =>
        api(t, member)
          .post(paths.agents(wId))
          .send(agentBody({ tags: [{ name }] })),
    },
    {
      what: "an agent's action",
      field: 'assistant.actions.0.name',
      table: 'agent_configurations',
      send: (name) =>
        api(t, member)
          .post(paths.agents(wId))
          .send(agentBody({ actions: [{ name, mcpServerName: 'run_agent' }] })),
    },
    {
      what: "a data source's name",
      field: 'name',
      table: 'data_sources',
      send: (name) => api(t, a.admin).post(`/api/w/${wId}/spaces/${globalSpace}/data_sources`).send({ name }),
    },
    {
      what: "a document's title",
      field: 'title',
      table: 'data_source_documents',
      send: (name) =>
        api(t, a.admin)
          .post(
            `/api/v1/w/${wId}/spaces/${globalSpace}/data_sources/${dataSourceId}/documents/doc-${Math.random().toString(36).slice(2)}`,
          )
          .send({ title: name, text: 'Refunds within 30 days.' }),
    },
    {
      what: "a conversation's title",
      field: 'title',
      table: 'conversations',
      send: (name) => api(t, member).post(paths.conversations(wId)).send({ title: name }),
    },
    {
      what: "a conversation's new title",
      field: 'title',
      table: "conversations WHERE title <> 'Names'",
      send: (name) => api(t, member).patch(paths.conversation(wId, conversationId)).send({ title: name }),
    },
    {
      what: "a message author's full name",
      field: 'context.fullName',
      table: 'messages',
      send: (name) =>
        api(t, member)
          .post(paths.messages(wId, conversationId))
          .send({ content: 'Hello', mentions: [], context: { ...defaultContext, fullName: name } }),
    },
    {
      what: "a message author's username",
      field: 'context.username',
      table: 'messages',
      send: (name) =>
        api(t, member)
          .post(paths.messages(wId, conversationId))
          .send({ content: 'Hello', mentions: [], context: { ...defaultContext, username: name } }),
    },
    {
      what: "a content fragment's title",
      field: 'title',
      table: 'content_fragments',
      send: (name) =>
        api(t, member)
          .post(`${paths.conversation(wId, conversationId)}/content_fragments`)
          .send({ title: name, content: 'Some text', contentType: 'text/plain' }),
    },
  ];

  for (const taker of takers) {
    it(`refuses ${taker.what} with a hidden, control or reordering character, writing nothing`, async () => {
      const before = await count(taker.table);
      for (const name of DISGUISED) {
        const res = await taker.send(name);
        expectError(res, 400, 'invalid_request_error');
        expect({ name, message: res.body.error.message as string }).toEqual({
          name,
          message: expect.stringMatching(
            new RegExp(
              `^${taker.field.replace(/\./g, '\\.')}: must not contain U\\+[0-9A-F]{4,5}, ` +
                'an? (invisible|bidirectional control|control) character',
            ),
          ),
        });
      }
      expect(await count(taker.table)).toBe(before);
    });
  }

  it('takes a name that only looks like ev-ok once, and emoji with their joiners', async () => {
    for (const name of ['ev-ok', '👩‍💻 Dev team', '🏳️‍🌈 Pride', '❤️ Favourites']) {
      const server = await api(t, a.admin)
        .post(paths.toolServers(wId))
        .send({ name, url: 'https://mcp.example.com/mcp' });
      expect({ name, status: server.status }).toEqual({ name, status: 200 });
      expect(server.body.mcpServer.name).toBe(name);
      const space = await api(t, a.admin).post(paths.spaces(wId)).send({ name }).expect(200);
      expect(space.body.space.name).toBe(name);
    }
    const refused = await api(t, a.admin)
      .post(paths.toolServers(wId))
      .send({ name: 'ev-ok\u200b', url: 'https://mcp.example.com/mcp' });
    expectError(refused, 400, 'invalid_request_error');
    const listed = await api(t, member).get(paths.toolServers(wId)).expect(200);
    const names = (listed.body.remote as { name: string }[]).map((server) => server.name);
    expect(names.filter((name) => name.startsWith('ev-ok'))).toEqual(['ev-ok']);
  });

  it("drops those characters from an uploaded file's name, which its system gave it", async () => {
    const file = await world.file(member, { fileName: 're\u200bport\u202e.txt' });
    expect(file).toMatchObject({ fileName: 'report.txt' });
  });
});

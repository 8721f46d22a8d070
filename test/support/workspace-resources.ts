import type request from 'supertest';
import type { TestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

/**
 * Ids of real resources of one workspace, by the path parameter name the document uses, plus the
 * ids request bodies refer to (`dataSourceId`, `mcpServerId`).
 */
export type PathValues = Record<string, string>;

function ok(res: request.Response, what: string): Record<string, Record<string, unknown>> {
  if (res.status !== 200) {
    throw new Error(`Could not ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, Record<string, unknown>>;
}

/**
 * One resource of every kind a path names, created through the API by the workspace's admin: a
 * member, a key, a regular space, an agent, a conversation with a message, a shared remote tool
 * server and a custom data source view.
 */
export async function seedWorkspaceResources(
  t: TestApp,
  world: World,
  fixture: WorkspaceFixture,
): Promise<PathValues> {
  const wId = fixture.workspace.sId;
  const admin = api(t, fixture.admin);
  const member = await world.member(fixture.workspace, 'user');
  const key = await world.key(fixture.admin);
  const spaces = ok(await admin.get(`/api/w/${wId}/spaces`), 'list spaces').spaces as unknown as {
    sId: string;
    kind: string;
  }[];
  const globalSpace = spaces.find((space) => space.kind === 'global')!.sId;
  const space = ok(
    await admin
      .post(`/api/w/${wId}/spaces`)
      .send({ name: 'Seeded space', memberIds: [fixture.admin.user.sId, member.user.sId] }),
    'create a space',
  ).space.sId as string;
  const agent = ok(
    await admin.post(`/api/w/${wId}/assistant/agent_configurations`).send({
      assistant: {
        name: 'seeded-agent',
        description: 'Seeded',
        instructions: 'Be brief.',
        scope: 'visible',
        model: { providerId: 'local', modelId: 'local-1', temperature: 0.5 },
      },
    }),
    'create an agent',
  ).agentConfiguration.sId as string;
  const conversation = ok(
    await admin.post(`/api/w/${wId}/assistant/conversations`).send({
      title: 'Seeded conversation',
      message: { content: 'Hello', mentions: [], context: { username: 'seed', timezone: 'UTC' } },
    }),
    'create a conversation',
  );
  const server = ok(
    await admin
      .post(`/api/w/${wId}/mcp_servers`)
      .send({ name: 'Seeded', url: 'https://mcp.example.com/sse' }),
    'register a tool server',
  ).mcpServer.sId as string;
  const serverView = ok(
    await admin.post(`/api/w/${wId}/spaces/${space}/mcp_server_views`).send({ mcpServerId: server }),
    'share a tool server',
  ).mcpServerView.sId as string;
  const dataSource = ok(
    await admin.post(`/api/w/${wId}/spaces/${globalSpace}/data_sources`).send({ name: 'Seeded data' }),
    'create a data source',
  ).dataSource.sId as string;
  const view = ok(
    await admin.post(`/api/w/${wId}/spaces/${space}/data_source_views`).send({ dataSourceId: dataSource }),
    'share a data source',
  ).dataSourceView.sId as string;
  return {
    wId,
    userId: member.user.sId,
    keyId: key.keyId,
    spaceId: space,
    sId: agent,
    cId: conversation.conversation.sId as string,
    mId: conversation.message.sId as string,
    viewId: serverView,
    dsvId: view,
    dataSourceId: dataSource,
    mcpServerId: server,
  };
}

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
  const globalSpace = await world.globalSpace(fixture.admin);
  const { sId: space } = await world.space(fixture.admin, {
    name: 'Seeded space',
    members: [fixture.admin, member],
  });
  const { sId: agent } = await world.agent(fixture.admin, {
    name: 'seeded-agent',
    description: 'Seeded',
    model: { providerId: 'local', modelId: 'local-1', temperature: 0.5 },
  });
  const conversation = await world.conversation(fixture.admin, {
    title: 'Seeded conversation',
    message: 'Hello',
    context: { username: 'seed', timezone: 'UTC' },
  });
  const server = await world.toolServer(fixture.admin, { name: 'Seeded', spaceIds: [space] });
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
    cId: conversation.sId,
    mId: conversation.message!.sId,
    viewId: server.viewSIds[0],
    dsvId: view,
    dataSourceId: dataSource,
    mcpServerId: server.sId,
  };
}

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

interface Action {
  mcpServerName: string;
  toolName: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

describe('the search and include_data tools', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let agent: string;
  let boardSpace: string;

  const upsert = async (
    actor: KeyHolder,
    spaceId: string,
    dsId: string,
    documentId: string,
    body: Record<string, unknown>,
  ) => {
    await api(t, actor)
      .post(`/api/v1/w/${actor.workspace.sId}/spaces/${spaceId}/data_sources/${dsId}/documents/${documentId}`)
      .send(body)
      .expect(200);
  };

  const createDataSource = async (admin: KeyHolder, spaceId: string, name: string) => {
    const res = await api(t, admin)
      .post(`/api/w/${admin.workspace.sId}/spaces/${spaceId}/data_sources`)
      .send({ name })
      .expect(200);
    return res.body.dataSource.sId as string;
  };

  /** The settled agent message answering `content`, asked by `actor`. */
  async function ask(actor: KeyHolder, content: string): Promise<AgentMessage> {
    const built = await world.conversation(actor, { message: content, mentions: [agent] });
    const list = await until(
      () => world.messages(actor, built.sId),
      (messages) =>
        messages.some(
          (m) =>
            m.type === 'agent_message' && ['succeeded', 'failed', 'cancelled'].includes(m.status as string),
        ),
    );
    return list.find((m) => m.type === 'agent_message') as AgentMessage;
  }

  const outputOf = (message: AgentMessage) =>
    message.actions[0].output?.map((part) => part.text).join('') ?? '';

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 4,
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    member = await world.member(a.workspace, 'user');
    const globalSpace = await world.globalSpace(a.admin);
    boardSpace = (await world.space(a.admin, { name: 'Board', members: [a.admin] })).sId;

    const handbook = await createDataSource(a.admin, globalSpace, 'Handbook');
    await upsert(member, globalSpace, handbook, 'refunds', {
      title: 'Refund policy',
      text: 'Customers get a refund within 30 days of purchase, no questions asked.',
      source_url: 'https://intranet.example.com/policies/refunds',
      timestamp: 1_700_000_000_000,
    });
    await upsert(member, globalSpace, handbook, 'holidays', {
      title: 'Holidays',
      text: 'Everyone takes 25 days of holidays a year.',
      timestamp: 1_800_000_000_000,
    });
    // A private space's documents, half of them shared into the global space through a partial view.
    const board = await createDataSource(a.admin, boardSpace, 'Board minutes');
    await upsert(a.admin, boardSpace, board, 'secret', {
      title: 'Refund fraud investigation',
      text: 'The refund fraud investigation is confidential.',
      parents: ['confidential'],
    });
    await upsert(a.admin, boardSpace, board, 'published', {
      title: 'Published refund figures',
      text: 'Refund volumes fell by half this year.',
      parents: ['public'],
    });
    await api(t, a.admin)
      .post(`/api/w/${a.workspace.sId}/spaces/${globalSpace}/data_source_views`)
      .send({ dataSourceId: board, parentsIn: ['public'] })
      .expect(200);
    // Another workspace's document never reaches this one.
    const foreign = await createDataSource(b.admin, await world.globalSpace(b.admin), 'Foreign');
    await upsert(b.admin, await world.globalSpace(b.admin), foreign, 'theirs', {
      text: 'Their refund rules.',
    });

    agent = (
      await world.agent(a.admin, {
        instructions: 'Answer from the documents and cite them.',
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [
          { name: 'search', mcpServerName: 'search' },
          { name: 'include_data', mcpServerName: 'include_data' },
        ],
      })
    ).sId;
  });
  afterAll(() => t.close());

  it('finds an upserted document and the answer cites its title and URL', async () => {
    const message = await ask(member, '/tool search__search {"query": "refund within 30 days"}');
    expect(message.status).toBe('succeeded');
    expect(message.actions[0]).toMatchObject({
      mcpServerName: 'search',
      toolName: 'search',
      status: 'succeeded',
    });
    const output = outputOf(message);
    expect(output).toMatch(
      /^<document index="1" title="Refund policy" source="https:\/\/intranet\.example\.com\/policies\/refunds">\nCustomers/,
    );
    expect(message.content).toContain(
      'title="Refund policy" source="https://intranet.example.com/policies/refunds"',
    );
  });

  it("searches only what the run's caller can read: private spaces and parentsIn hold", async () => {
    const asMember = outputOf(await ask(member, '/tool search__search {"query": "refund"}'));
    expect(asMember).toContain('Refund policy');
    expect(asMember).toContain('Published refund figures');
    expect(asMember).not.toContain('fraud');
    expect(asMember).not.toContain('Their refund rules');

    // The admin is a member of the board space, so its default view (all of it) applies.
    const asAdmin = outputOf(await ask(a.admin, '/tool search__search {"query": "refund"}'));
    expect(asAdmin).toContain('Refund fraud investigation');
    expect(asAdmin).not.toContain('Their refund rules');
  });

  it("makes a conversation request the private space only for what only that space's view shows", async () => {
    const requested = async (actor: KeyHolder, content: string) => {
      const { sId } = await world.conversation(actor, { message: content, mentions: [agent] });
      await world.settled(actor, sId);
      const res = await api(t, actor)
        .get(`/api/w/${a.workspace.sId}/assistant/conversations/${sId}`)
        .expect(200);
      return res.body.conversation.requestedSpaceIds as string[];
    };
    // Shown to everyone through the global space's partial view: nothing to restrict.
    expect(await requested(a.admin, '/tool search__search {"query": "refund volumes"}')).toEqual([]);
    expect(await requested(member, '/tool search__search {"query": "refund"}')).toEqual([]);
    expect(await requested(a.admin, '/tool search__search {"query": "fraud investigation"}')).toEqual([
      boardSpace,
    ]);
  });

  it('says so when nothing matches', async () => {
    const message = await ask(member, '/tool search__search {"query": "submarine"}');
    expect(outputOf(message)).toBe('No document matches "submarine".');
  });

  it('includes the most recent documents, newest first, with their text', async () => {
    const message = await ask(member, '/tool include_data__include_data {"count": 2}');
    expect(message.actions[0]).toMatchObject({ mcpServerName: 'include_data', status: 'succeeded' });
    const output = outputOf(message);
    expect(output).toMatch(
      /^<document index="1" title="Holidays" source="document holidays" date="2027-01-15T08:00:00.000Z">\nEveryone takes 25 days/,
    );
    expect(output).toContain('<document index="2" ');
    expect(output).not.toContain('fraud');
  });
});

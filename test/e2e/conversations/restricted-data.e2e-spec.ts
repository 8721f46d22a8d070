import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { endsWithin, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, ListedMessage, World, WorkspaceFixture, api } from 'test/support/world';

interface Action {
  mcpServerName: string;
  status: string;
  output: { type: string; text: string }[] | null;
}

type AgentMessage = ListedMessage & { status: string; content: string; actions: Action[] };

const SECRET = 'The Orion acquisition closes on March 3 at 41 dollars a share.';

describe('data of a restricted space brought into a conversation', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let insider: Actor;
  let outsider: Actor;
  let wId: string;
  let dealsSpace: string;
  let searchAgent: string;
  let baseUrl: string;

  const v1 = (path: string) => path.replace('/api/w/', '/api/v1/w/');
  const auth = (actor: KeyHolder) => ({ Authorization: `Bearer ${actor.secret}` });

  /** The agent message of the conversation once its run has ended. */
  async function answered(actor: KeyHolder, cId: string): Promise<AgentMessage> {
    const list = await until(
      () => world.messages(actor, cId),
      (messages) =>
        messages.some(
          (m) => m.type === 'agent_message' && ['succeeded', 'failed'].includes(m.status as string),
        ),
    );
    return list.find((m) => m.type === 'agent_message') as AgentMessage;
  }

  const conversationOf = async (actor: KeyHolder, cId: string) =>
    (await api(t, actor).get(paths.conversation(wId, cId)).expect(200)).body.conversation as {
      requestedSpaceIds: string[];
      requestedGroupIds: string[][];
    };

  const listed = async (actor: KeyHolder, path: string) =>
    ((await api(t, actor).get(path).expect(200)).body.conversations as { sId: string }[]).map((c) => c.sId);

  beforeAll(async () => {
    // Streams close here because of the change itself, not the periodic re-check.
    t = await createTestApp({
      env: {
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 4,
        SSE_ACCESS_RECHECK_MS: 600_000,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    a = await world.workspace();
    wId = a.workspace.sId;
    insider = await world.member(a.workspace, 'user');
    outsider = await world.member(a.workspace, 'user');
    dealsSpace = (await world.space(a.admin, { name: 'Deals', members: [a.admin, insider] })).sId;
    const dataSource = await api(t, a.admin)
      .post(`/api/w/${wId}/spaces/${dealsSpace}/data_sources`)
      .send({ name: 'Deal memos' })
      .expect(200);
    await api(t, insider)
      .post(
        `/api/v1/w/${wId}/spaces/${dealsSpace}/data_sources/${dataSource.body.dataSource.sId}/documents/orion`,
      )
      .send({ title: 'Orion memo', text: SECRET })
      .expect(200);
    searchAgent = (
      await world.agent(a.admin, {
        name: 'researcher',
        instructions: 'Answer from the documents.',
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [
          { name: 'search', mcpServerName: 'search' },
          { name: 'include_data', mcpServerName: 'include_data' },
        ],
      })
    ).sId;
  });
  afterAll(() => t.close());

  it('makes the conversation need the space: outsiders are refused everywhere and their streams close', async () => {
    // Open to every member at first: the outsider takes part and follows it live, on both families.
    const { sId: cId } = await world.conversation(insider, { title: 'Deal room', message: 'Hello all' });
    await world.message(outsider, cId, 'Hi, following along');
    expect(await listed(outsider, paths.conversations(wId))).toContain(cId);
    const streams = [
      await openSse(`${baseUrl}${paths.stream(wId, cId)}`, auth(outsider)),
      await openSse(`${baseUrl}${v1(paths.events(wId, cId))}`, auth(outsider)),
    ];
    let mId: string;
    try {
      expect(streams.map((stream) => stream.status)).toEqual([200, 200]);

      await world.message(insider, cId, '/tool search__search {"query": "Orion acquisition"}', {
        mentions: [searchAgent],
      });
      const answer = await answered(insider, cId);
      mId = answer.sId;
      expect(answer.status).toBe('succeeded');
      expect(answer.actions[0]).toMatchObject({ mcpServerName: 'search', status: 'succeeded' });
      expect(answer.actions[0].output?.[0].text).toContain(SECRET);
      expect(answer.content).toContain('Orion acquisition closes');

      expect(await conversationOf(insider, cId)).toMatchObject({
        requestedSpaceIds: [dealsSpace],
        requestedGroupIds: [[dealsSpace]],
      });
      const row = await t.dataSource.query<{ requested_space_ids: string[] }[]>(
        'SELECT requested_space_ids FROM conversations WHERE s_id = $1',
        [cId],
      );
      expect(row[0].requested_space_ids).toEqual([dealsSpace]);

      for (const stream of streams) await endsWithin(stream, 2_000);
      for (const stream of streams)
        expect(JSON.stringify(stream.events)).not.toContain('Orion acquisition closes');
    } finally {
      for (const stream of streams) stream.close();
    }

    const reads = [
      paths.conversation(wId, cId),
      v1(paths.conversation(wId, cId)),
      paths.messages(wId, cId),
      v1(paths.messages(wId, cId)),
      paths.events(wId, cId),
      paths.stream(wId, cId),
      v1(paths.events(wId, cId)),
      `${paths.message(wId, cId, mId)}/events`,
      `${v1(paths.message(wId, cId, mId))}/events`,
    ];
    for (const path of reads) {
      const res = await api(t, outsider).get(path);
      expectError(res, 403, 'conversation_access_restricted');
      expect(JSON.stringify(res.body)).not.toContain('Orion');
    }
    for (const path of [paths.messages(wId, cId), v1(paths.messages(wId, cId))]) {
      const post = await api(t, outsider)
        .post(path)
        .send({ content: 'What did it say?', mentions: [], context: { username: 'bo', timezone: 'UTC' } });
      expectError(post, 403, 'conversation_access_restricted');
    }
    for (const path of [paths.conversations(wId), v1(paths.conversations(wId))]) {
      expect(await listed(outsider, path)).not.toContain(cId);
      expect(await listed(insider, path)).toContain(cId);
    }
    const messages = await world.messages(insider, cId);
    expect(messages.map((m) => m.content)).toEqual(
      expect.arrayContaining(['Hi, following along', expect.stringContaining('Orion acquisition closes')]),
    );
    await api(t, insider)
      .get(v1(paths.conversation(wId, cId)))
      .expect(200);
  });

  it('counts what an agent asked through run_agent read, and leaves what every member may read open', async () => {
    const delegate = await world.agent(a.admin, {
      name: 'delegate',
      instructions: 'Ask the researcher.',
      model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
      actions: [{ name: 'run_agent', mcpServerName: 'run_agent' }],
    });
    const query = JSON.stringify({
      agentId: searchAgent,
      query: '/tool include_data__include_data {"count": 1}',
    });
    const { sId: cId } = await world.conversation(insider, {
      message: `/tool run_agent__run_agent ${query}`,
      mentions: [delegate.sId],
    });
    const answer = await answered(insider, cId);
    expect(answer.actions[0]).toMatchObject({ mcpServerName: 'run_agent', status: 'succeeded' });
    expect(answer.actions[0].output?.[0].text).toContain(SECRET);
    expect((await conversationOf(insider, cId)).requestedSpaceIds).toEqual([dealsSpace]);
    expectError(
      await api(t, outsider).get(paths.conversation(wId, cId)),
      403,
      'conversation_access_restricted',
    );

    // The outsider's own search reads only what the global space shows: nothing is requested.
    const { sId: open } = await world.conversation(outsider, {
      message: '/tool search__search {"query": "Orion acquisition"}',
      mentions: [searchAgent],
    });
    const own = await answered(outsider, open);
    expect(own.actions[0].output?.[0].text).toBe('No document matches "Orion acquisition".');
    expect((await conversationOf(outsider, open)).requestedSpaceIds).toEqual([]);
    await api(t, insider).get(paths.conversation(wId, open)).expect(200);
  });
});

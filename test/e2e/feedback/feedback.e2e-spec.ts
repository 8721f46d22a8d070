import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { until } from 'test/support/until';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };

interface AgentBody {
  sId: string;
  name: string;
  version: number;
  feedbacks?: { up: number; down: number };
}

interface FeedbackRow {
  thumb_direction: string;
  content: string;
  is_conversation_shared: boolean;
  created_at: Date;
  updated_at: Date;
}

describe('feedback on agent messages', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let agents: AgentBody[];

  const agent = (name: string) => agents.find((candidate) => candidate.name === name)!;
  /** A conversation of `actor` where the agent answered one question; resolves once the answer is finished. */
  const answered = async (agentSId = agent('assistant').sId, actor: Actor = a.admin) => {
    const { sId: cId } = await world.conversation(actor, {
      message: 'What is the plan?',
      mentions: [agentSId],
    });
    const messages = await world.settled(actor, cId);
    const userMessage = messages.find((m) => m.type === 'user_message')!;
    const agentMessage = messages.find((m) => m.type === 'agent_message')!;
    return { cId, userMessage, agentMessage };
  };

  const give = async (actor: Actor, cId: string, mId: string, body: Record<string, unknown>) => {
    const res = await api(t, actor)
      .post(paths.messageFeedbacks(wId, cId, mId))
      .send(body);
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true } });
    expect(res.body).toMatchApiSchema('FeedbackSuccessResponse');
  };

  const list = async (actor: Actor, cId: string) => {
    const res = await api(t, actor).get(paths.feedbacks(wId, cId)).expect(200);
    expect(res.body).toMatchApiSchema('FeedbacksResponse');
    return res.body.feedbacks as Record<string, unknown>[];
  };

  const rows = (messageId: number) =>
    t.dataSource.query<FeedbackRow[]>(
      'SELECT thumb_direction, content, is_conversation_shared, created_at, updated_at FROM agent_message_feedbacks WHERE message_id = $1 ORDER BY id',
      [messageId],
    );

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    const globals = await api(t, a.admin)
      .get(`${paths.agents(wId)}?view=global`)
      .expect(200);
    agents = globals.body.agentConfigurations as AgentBody[];
  });
  afterAll(() => t.close());

  it('gives, replaces and removes feedback, listed exactly as specified', async () => {
    const { cId, agentMessage } = await answered();
    const before = Date.now();
    await give(a.admin, cId, agentMessage.sId, {
      thumbDirection: 'up',
      feedbackContent: 'Clear and right.',
      isConversationShared: true,
    });
    const first = await list(a.admin, cId);
    expect(first).toEqual([
      {
        messageId: agentMessage.sId,
        agentMessageId: agentMessage.id,
        userId: a.admin.user.id,
        thumbDirection: 'up',
        content: 'Clear and right.',
        createdAt: expect.any(Number),
        agentConfigurationId: agent('assistant').sId,
        agentConfigurationVersion: agent('assistant').version,
        isConversationShared: true,
      },
    ]);
    expect(first[0].createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(first[0].createdAt).toBeLessThanOrEqual(Date.now() + 1000);

    // A second feedback replaces the first whole: left-out fields are not kept from it.
    await give(a.admin, cId, agentMessage.sId, { thumbDirection: 'down' });
    expect(await list(a.admin, cId)).toEqual([
      { ...first[0], thumbDirection: 'down', content: '', isConversationShared: false },
    ]);
    const stored = await rows(agentMessage.id);
    expect(stored).toHaveLength(1);
    const [row] = stored;
    expect(row.updated_at.getTime()).toBeGreaterThan(row.created_at.getTime());

    const removed = await api(t, a.admin)
      .delete(paths.messageFeedbacks(wId, cId, agentMessage.sId))
      .expect(200);
    expect(removed.body).toEqual({ success: true });
    expect(await list(a.admin, cId)).toEqual([]);
    expect(await rows(agentMessage.id)).toEqual([]);
  });

  it('answers 200 to removing a feedback that does not exist, and changes nothing', async () => {
    const { cId, agentMessage } = await answered();
    await give(member, cId, agentMessage.sId, { thumbDirection: 'up' });
    const res = await api(t, a.admin)
      .delete(paths.messageFeedbacks(wId, cId, agentMessage.sId))
      .expect(200);
    expect(res.body).toEqual({ success: true });
    expect(res.body).toMatchApiSchema('FeedbackSuccessResponse');
    expect(await list(a.admin, cId)).toEqual([
      expect.objectContaining({ userId: member.user.id, thumbDirection: 'up' }),
    ]);
  });

  it("lists every member's feedback on every agent message of the conversation, oldest first", async () => {
    const { cId, agentMessage } = await answered();
    const followUp = await api(t, a.admin)
      .post(paths.messages(wId, cId))
      .send({ content: 'And then?', mentions: [{ configurationId: agent('assistant').sId }], context })
      .expect(200);
    const messages = await until(
      () => world.messages(a.admin, cId),
      (all) => all.filter((m) => m.type === 'agent_message' && m.status !== 'created').length === 2,
    );
    const second = messages
      .filter((m) => m.type === 'agent_message')
      .find((m) => m.sId !== agentMessage.sId)!;
    expect(followUp.body.message.sId).not.toBe(second.sId);

    await give(member, cId, second.sId, { thumbDirection: 'down', feedbackContent: 'Too vague.' });
    await give(a.admin, cId, agentMessage.sId, { thumbDirection: 'up' });
    await give(member, cId, agentMessage.sId, { thumbDirection: 'up', isConversationShared: true });
    const listed = await list(member, cId);
    expect(
      listed.map(({ messageId, userId, thumbDirection, content }) => ({
        messageId,
        userId,
        thumbDirection,
        content,
      })),
    ).toEqual([
      { messageId: second.sId, userId: member.user.id, thumbDirection: 'down', content: 'Too vague.' },
      { messageId: agentMessage.sId, userId: a.admin.user.id, thumbDirection: 'up', content: '' },
      { messageId: agentMessage.sId, userId: member.user.id, thumbDirection: 'up', content: '' },
    ]);
    const createdAts = listed.map((entry) => entry.createdAt as number);
    expect(createdAts).toEqual([...createdAts].sort((x, y) => x - y));
  });

  it('keeps one feedback per member and message when feedbacks arrive together', async () => {
    const { cId, agentMessage } = await answered();
    const directions = ['up', 'down', 'up', 'down', 'up', 'down'];
    const answers = await Promise.all(
      directions.map((thumbDirection) =>
        api(t, member)
          .post(paths.messageFeedbacks(wId, cId, agentMessage.sId))
          .send({ thumbDirection }),
      ),
    );
    expect(answers.map((res) => res.status)).toEqual(directions.map(() => 200));
    const stored = await rows(agentMessage.id);
    expect(stored).toHaveLength(1);
    expect(await list(member, cId)).toEqual([
      expect.objectContaining({ userId: member.user.id, thumbDirection: stored[0].thumb_direction }),
    ]);
  });

  it('refuses feedback on a user message with 400, and writes nothing', async () => {
    const { cId, userMessage } = await answered();
    for (const res of [
      await api(t, a.admin)
        .post(paths.messageFeedbacks(wId, cId, userMessage.sId))
        .send({ thumbDirection: 'up' }),
      await api(t, a.admin).delete(paths.messageFeedbacks(wId, cId, userMessage.sId)),
    ]) {
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toContain(userMessage.sId);
    }
    expect(await rows(userMessage.id)).toEqual([]);
  });

  it('refuses bad bodies with 400 naming the field, and writes nothing', async () => {
    const { cId, agentMessage } = await answered();
    await give(a.admin, cId, agentMessage.sId, { thumbDirection: 'up', feedbackContent: 'Kept.' });
    const cases: [unknown, string][] = [
      [{}, 'thumbDirection'],
      [{ thumbDirection: 'sideways' }, 'thumbDirection'],
      [{ thumbDirection: null }, 'thumbDirection'],
      [{ thumbDirection: 'down', feedbackContent: 'x'.repeat(4001) }, 'feedbackContent'],
      [{ thumbDirection: 'down', feedbackContent: 42 }, 'feedbackContent'],
      [{ thumbDirection: 'down', feedbackContent: 'nul\u0000' }, 'feedbackContent'],
      [{ thumbDirection: 'down', isConversationShared: 'yes' }, 'isConversationShared'],
      [{ thumbDirection: 'down', rating: 5 }, 'rating'],
      [['down'], ''],
    ];
    for (const [body, field] of cases) {
      const res = await api(t, a.admin)
        .post(paths.messageFeedbacks(wId, cId, agentMessage.sId))
        .send(body as object);
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toContain(field);
    }
    const malformed = await api(t, a.admin)
      .post(paths.messageFeedbacks(wId, cId, agentMessage.sId))
      .set('Content-Type', 'application/json')
      .send('{"thumbDirection":');
    expectError(malformed, 400, 'invalid_request_error');
    expect(await rows(agentMessage.id)).toEqual([
      expect.objectContaining({ thumb_direction: 'up', content: 'Kept.' }),
    ]);
    // The longest content is accepted.
    await give(a.admin, cId, agentMessage.sId, { thumbDirection: 'down', feedbackContent: 'y'.repeat(4000) });
    expect((await rows(agentMessage.id))[0].content).toHaveLength(4000);
  });

  it('needs read:conversation to list, even with an admin key, and write:conversation to give', async () => {
    const { cId, agentMessage } = await answered();
    const writeOnly = await world.key(a.admin, ['write:conversation', 'read:agent']);
    expectError(await api(t, writeOnly).get(paths.feedbacks(wId, cId)), 403, 'insufficient_key_scope');
    await give(writeOnly, cId, agentMessage.sId, { thumbDirection: 'up' });

    const readOnly = await world.key(a.admin, ['read:conversation']);
    for (const res of [
      await api(t, readOnly)
        .post(paths.messageFeedbacks(wId, cId, agentMessage.sId))
        .send({ thumbDirection: 'down' }),
      await api(t, readOnly).delete(paths.messageFeedbacks(wId, cId, agentMessage.sId)),
    ]) {
      expectError(res, 403, 'insufficient_key_scope');
    }
    expect(await list(readOnly, cId)).toEqual([expect.objectContaining({ thumbDirection: 'up' })]);
  });

  it("answers 404 for another workspace's conversation, an unknown one, or a message of another conversation", async () => {
    const own = await answered();
    const foreign = await answered((await world.globalAgents(b)).assistant, b.admin);
    for (const cId of [foreign.cId, 'noSuchConv']) {
      for (const res of [
        await api(t, a.admin).get(paths.feedbacks(wId, cId)),
        await api(t, a.admin)
          .post(paths.messageFeedbacks(wId, cId, foreign.agentMessage.sId))
          .send({ thumbDirection: 'up' }),
        await api(t, a.admin).delete(paths.messageFeedbacks(wId, cId, foreign.agentMessage.sId)),
      ]) {
        expectError(res, 404, 'conversation_not_found');
      }
    }
    const other = await answered();
    for (const mId of [other.agentMessage.sId, 'noSuchMsg1']) {
      expectError(
        await api(t, a.admin)
          .post(paths.messageFeedbacks(wId, own.cId, mId))
          .send({ thumbDirection: 'up' }),
        404,
        'message_not_found',
      );
      expectError(
        await api(t, a.admin).delete(paths.messageFeedbacks(wId, own.cId, mId)),
        404,
        'message_not_found',
      );
    }
    expect(await rows(foreign.agentMessage.id)).toEqual([]);
    expect(await rows(other.agentMessage.id)).toEqual([]);
  });

  it("answers another workspace's key with 401", async () => {
    const { cId, agentMessage } = await answered();
    for (const res of [
      await api(t, b.admin).get(paths.feedbacks(wId, cId)),
      await api(t, b.admin)
        .post(paths.messageFeedbacks(wId, cId, agentMessage.sId))
        .send({ thumbDirection: 'up' }),
      await api(t, b.admin).delete(paths.messageFeedbacks(wId, cId, agentMessage.sId)),
    ]) {
      expectError(res, 401, 'workspace_auth_error');
    }
    expect(await rows(agentMessage.id)).toEqual([]);
  });

  it('keeps a conversation of a space the caller cannot access closed: 403', async () => {
    const space = await world.space(a.admin, { name: 'Board', members: [a.admin] });
    const created = await world.conversation(a.admin, { spaceId: space.sId, message: 'Private' });
    const cId = created.sId;
    const mId = created.message!.sId;
    for (const res of [
      await api(t, member).get(paths.feedbacks(wId, cId)),
      await api(t, member)
        .post(paths.messageFeedbacks(wId, cId, mId))
        .send({ thumbDirection: 'up' }),
      await api(t, member).delete(paths.messageFeedbacks(wId, cId, mId)),
    ]) {
      expectError(res, 403, 'conversation_access_restricted');
    }
    expect(await list(a.admin, cId)).toEqual([]);
  });

  it('counts up and down feedback per agent on the agent list with withFeedbacks=true', async () => {
    const listAgents = async (query: string) => {
      const res = await api(t, a.admin)
        .get(`${paths.agents(wId)}${query}`)
        .expect(200);
      expect(res.body).toMatchApiSchema('AgentConfigurationsResponse');
      return res.body.agentConfigurations as AgentBody[];
    };
    const counts = async () =>
      Object.fromEntries(
        (await listAgents('?view=global&withFeedbacks=true')).map((listed) => [
          listed.name,
          listed.feedbacks,
        ]),
      );
    const beforeCounts = await counts();
    expect(Object.values(beforeCounts).every((value) => value !== undefined)).toBe(true);

    const first = await answered();
    const second = await answered();
    const third = await answered(agent('summarizer').sId);
    await give(a.admin, first.cId, first.agentMessage.sId, { thumbDirection: 'up' });
    await give(member, first.cId, first.agentMessage.sId, { thumbDirection: 'down' });
    await give(member, second.cId, second.agentMessage.sId, { thumbDirection: 'up' });
    await give(member, third.cId, third.agentMessage.sId, { thumbDirection: 'down' });

    const plus = (name: string, up: number, down: number) => ({
      up: beforeCounts[name]!.up + up,
      down: beforeCounts[name]!.down + down,
    });
    const afterCounts = await counts();
    expect(afterCounts.assistant).toEqual(plus('assistant', 2, 1));
    expect(afterCounts.summarizer).toEqual(plus('summarizer', 0, 1));

    // Feedback last given more than 30 days ago is outside the window.
    await t.dataSource.query(
      "UPDATE agent_message_feedbacks SET updated_at = now() - interval '31 days' WHERE message_id = $1",
      [second.agentMessage.id],
    );
    expect((await counts()).assistant).toEqual(plus('assistant', 1, 1));

    for (const query of ['?view=global', '?view=global&withFeedbacks=1']) {
      expect((await listAgents(query)).every((listed) => listed.feedbacks === undefined)).toBe(true);
    }
  });
});

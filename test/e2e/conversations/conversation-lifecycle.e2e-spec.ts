import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { endsWithin, openSse } from 'test/support/sse-client';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, ListedMessage, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

const context = { username: 'ada', timezone: 'UTC' };

/** Every agent message of the list answers a user message the list shows. */
function expectParentsShown(list: ListedMessage[]): void {
  const shown = new Set(list.filter((m) => m.type === 'user_message').map((m) => m.sId));
  for (const answer of list.filter((m) => m.type === 'agent_message'))
    expect({ answer: answer.sId, parentShown: shown.has(answer.parentMessageId!) }).toEqual({
      answer: answer.sId,
      parentShown: true,
    });
}

describe('conversation lifecycle', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let wId: string;
  let baseUrl: string;
  let member: Actor;
  let other: Actor;
  let agents: Record<string, string>;
  const openai = new FakeOpenAi();

  const participantsPath = (cId: string) => `${paths.conversation(wId, cId)}/participants`;
  const retryPath = (cId: string, mId: string) => `${paths.message(wId, cId, mId)}/retry`;
  const editPath = (cId: string, mId: string) => `${paths.message(wId, cId, mId)}/edit`;
  /** The rows stored at a rank, every version, oldest first. */
  const versionsAt = (cId: string, rank: number) =>
    t.dataSource.query<{ s_id: string; version: number; status: string | null }[]>(
      `SELECT m.s_id, m.version, m.status FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE c.s_id = $1 AND m.rank = $2 ORDER BY m.version`,
      [cId, rank],
    );

  beforeAll(async () => {
    const openaiUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 30_000,
        OPENAI_MAX_RETRIES: 0,
        RUN_HEARTBEAT_MS: 200,
        RUN_STALE_AFTER_MS: 60_000,
        LOCAL_MODEL_CHUNK_DELAY_MS: 0,
        RUN_CONCURRENCY: 8,
        // The periodic re-check is far away: a stream that closes does so because of the deletion.
        SSE_ACCESS_RECHECK_MS: 600_000,
        SSE_POLL_MS: 60_000,
      },
    });
    baseUrl = await t.listen();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    [member, other] = await Promise.all([
      world.member(a.workspace, 'user'),
      world.member(a.workspace, 'user'),
    ]);
    agents = await world.globalAgents(a);
    // An agent whose provider never answers (the fake stalls): its messages stay running.
    agents.stalling = (
      await world.agent(a.admin, {
        name: 'stalling',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      })
    ).sId;
  });
  afterAll(async () => {
    await t.close();
    await openai.stop();
  });

  /** A conversation of `actor` whose first message mentions `mentioned`, once its answers ended. */
  const answered = async (actor: Actor, content: string, mentioned: string[]) => {
    const built = await world.conversation(actor, { message: content, mentions: mentioned });
    const list = await world.settled(actor, built.sId, mentioned.length);
    return { cId: built.sId, message: built.message!, list };
  };

  describe('deleting a conversation', () => {
    it('lets its creator delete it: every read answers 404 and it leaves the list', async () => {
      const { cId, list } = await answered(member, 'Something to forget', [agents.assistant]);
      const answer = list.find((m) => m.type === 'agent_message')!;
      const res = await api(t, member).delete(paths.conversation(wId, cId)).expect(200);
      expect(res.body).toEqual({ success: true });
      expect(res.body).toMatchApiSchema('ConversationDeletedResponse');

      const reads = [
        paths.conversation(wId, cId),
        paths.messages(wId, cId),
        paths.events(wId, cId),
        paths.stream(wId, cId),
        `${paths.message(wId, cId, answer.sId)}/events`,
        paths.wakeUps(wId, cId),
        paths.feedbacks(wId, cId),
        participantsPath(cId),
        `${paths.conversation(wId, cId)}/actions/blocked`,
      ];
      for (const path of reads) expectError(await api(t, member).get(path), 404, 'conversation_not_found');
      expectError(
        await api(t, member)
          .post(paths.messages(wId, cId))
          .send({ content: 'Hello?', mentions: [], context }),
        404,
        'conversation_not_found',
      );
      expectError(
        await api(t, member)
          .post(`${paths.conversation(wId, cId)}/fork`)
          .send({ sourceMessageId: answer.sId }),
        404,
        'conversation_not_found',
      );
      const listed = await api(t, member).get(paths.conversations(wId)).expect(200);
      expect((listed.body.conversations as { sId: string }[]).map((c) => c.sId)).not.toContain(cId);
      expectError(await api(t, member).delete(paths.conversation(wId, cId)), 404, 'conversation_not_found');
      // Soft: the rows stay, marked deleted.
      const [row] = await t.dataSource.query<{ deleted: boolean; messages: number }[]>(
        `SELECT c.deleted_at IS NOT NULL AS deleted, (SELECT count(*)::int FROM messages m WHERE m.conversation_id = c.id) AS messages
         FROM conversations c WHERE c.s_id = $1`,
        [cId],
      );
      expect(row).toEqual({ deleted: true, messages: 2 });
    });

    it("lets an admin delete a member's conversation; another member gets 403 and nothing changes", async () => {
      const { sId: cId } = await world.conversation(member, { message: 'Mine' });
      expectError(await api(t, other).delete(paths.conversation(wId, cId)), 403, 'workspace_auth_error');
      await api(t, other).get(paths.conversation(wId, cId)).expect(200);
      await api(t, a.admin).delete(paths.conversation(wId, cId)).expect(200);
      expectError(await api(t, member).get(paths.conversation(wId, cId)), 404, 'conversation_not_found');
    });

    it('answers 404 to a member who cannot read it, and to another workspace', async () => {
      const space = await world.space(a.admin, { members: [a.admin, member] });
      const { sId: cId } = await world.conversation(member, { spaceId: space.sId, message: 'In a space' });
      expectError(await api(t, other).delete(paths.conversation(wId, cId)), 404, 'conversation_not_found');
      expectError(
        await api(t, b.admin).delete(paths.conversation(b.workspace.sId, cId)),
        404,
        'conversation_not_found',
      );
      const readOnly = await world.key(member, ['read:conversation']);
      expectError(await api(t, readOnly).delete(paths.conversation(wId, cId)), 403, 'insufficient_key_scope');
      await api(t, member).get(paths.conversation(wId, cId)).expect(200);
    });

    it('closes its open streams, cancels its running answers and its wake-up', async () => {
      openai.script({ kind: 'stall' });
      const { sId: cId } = await world.conversation(member, {
        message: 'Take your time',
        mentions: [agents.stalling],
      });
      await until(
        () => world.messages(member, cId),
        (list) => list.some((m) => m.type === 'agent_message' && m.status === 'created'),
      );
      const wakeUp = await world.wakeUp(member, cId, { agent: agents.assistant });
      const stream = await openSse(`${baseUrl}${paths.stream(wId, cId)}`, {
        Authorization: `Bearer ${member.secret}`,
      });
      try {
        expect(stream.status).toBe(200);
        await api(t, member).delete(paths.conversation(wId, cId)).expect(200);
        await endsWithin(stream, 5_000);
        expect(stream.events).toEqual([]);
      } finally {
        stream.close();
      }
      const answers = await t.dataSource.query<{ status: string }[]>(
        `SELECT m.status FROM messages m JOIN conversations c ON c.id = m.conversation_id
         WHERE c.s_id = $1 AND m.type = 'agent_message'`,
        [cId],
      );
      expect(answers).toEqual([{ status: 'cancelled' }]);
      const wakeUps = await t.dataSource.query<{ status: string }[]>(
        'SELECT status FROM wakeups WHERE s_id = $1',
        [wakeUp.sId],
      );
      expect(wakeUps).toEqual([{ status: 'cancelled' }]);
    });
  });

  describe('participants', () => {
    it("lists who posted, reacted or follows, and the agents that answered, in Dust's shape", async () => {
      const { cId, message } = await answered(member, 'Who is here?', [agents.assistant]);
      await world.message(a.admin, cId, 'Me too', { mentions: [agents.summarizer] });
      await world.settled(member, cId, 2);
      await api(t, other)
        .post(`${paths.message(wId, cId, message.sId)}/reactions`)
        .send({ emoji: '👍' })
        .expect(200);
      const follower = await world.member(a.workspace, 'user');
      await api(t, follower).patch(paths.conversation(wId, cId)).send({ read: true }).expect(200);

      const res = await api(t, other).get(participantsPath(cId)).expect(200);
      expect(res.body).toMatchApiSchema('ParticipantsResponse');
      const { users, agents: answering } = res.body.participants as {
        users: { sId: string; action: string; email: string; fullName: string }[];
        agents: { configurationId: string; name: string; pictureUrl: string }[];
      };
      expect(users.map((user) => [user.sId, user.action])).toEqual([
        [member.user.sId, 'posted'],
        [a.admin.user.sId, 'posted'],
        [other.user.sId, 'reacted'],
        [follower.user.sId, 'subscribed'],
      ]);
      expect(users[0]).toMatchObject({ email: member.user.email, fullName: member.user.fullName });
      expect(answering.map((agent) => [agent.configurationId, agent.name])).toEqual([
        [agents.assistant, 'assistant'],
        [agents.summarizer, 'summarizer'],
      ]);
    });

    it('is 404 for another workspace and for an unknown conversation', async () => {
      const { sId: cId } = await world.conversation(member, { message: 'Private' });
      expectError(
        await api(t, b.admin).get(`${paths.conversation(b.workspace.sId, cId)}/participants`),
        404,
        'conversation_not_found',
      );
      expectError(await api(t, member).get(participantsPath('nope123456')), 404, 'conversation_not_found');
    });
  });

  describe('retrying an agent message', () => {
    it('writes a new version at the same rank, runs it again and announces it', async () => {
      const { cId, message, list } = await answered(member, 'Answer twice', [agents.assistant]);
      const first = list.find((m) => m.type === 'agent_message')!;
      const res = await api(t, other).post(retryPath(cId, first.sId)).expect(200);
      expect(res.body).toMatchApiSchema('AgentMessageResponse');
      expect(res.body.message).toMatchObject({
        type: 'agent_message',
        rank: first.rank,
        version: 1,
        parentMessageId: message.sId,
        configuration: { sId: agents.assistant },
      });
      expect(res.body.message.sId).not.toBe(first.sId);

      const settled = await until(
        () => world.messages(member, cId),
        (messages) => messages.some((m) => m.sId === res.body.message.sId && m.status === 'succeeded'),
      );
      expect(settled.map((m) => [m.type, m.rank])).toEqual([
        ['user_message', 0],
        ['agent_message', 1],
      ]);
      expect(settled[1]).toMatchObject({ sId: res.body.message.sId, parentMessageId: message.sId });
      expect(settled[1].content).toContain('Answer twice');
      expect(await versionsAt(cId, first.rank)).toEqual([
        { s_id: first.sId, version: 0, status: 'succeeded' },
        { s_id: res.body.message.sId, version: 1, status: 'succeeded' },
      ]);
      const announced = (await eventsOf(t, member, cId)).filter((e) => e.type === 'agent_message_new');
      expect(announced.map((e) => e.payload.messageId)).toEqual([first.sId, res.body.message.sId]);

      // Only the latest version is retried.
      expectError(await api(t, member).post(retryPath(cId, first.sId)), 400, 'invalid_request_error');
    });

    it('refuses a running message with 409, a user message with 400, and others with 404', async () => {
      openai.script({ kind: 'stall' });
      const { sId: cId, message } = await world.conversation(member, {
        message: 'Still thinking',
        mentions: [agents.stalling],
      });
      const [running] = (
        await until(
          () => world.messages(member, cId),
          (list) => list.some((m) => m.type === 'agent_message'),
        )
      ).filter((m) => m.type === 'agent_message');
      expectError(await api(t, member).post(retryPath(cId, running.sId)), 409, 'invalid_request_error');
      expectError(await api(t, member).post(retryPath(cId, message!.sId)), 400, 'invalid_request_error');
      expectError(await api(t, member).post(retryPath(cId, 'nope123456')), 404, 'message_not_found');
      expectError(
        await api(t, b.admin).post(`${paths.message(b.workspace.sId, cId, running.sId)}/retry`),
        404,
        'conversation_not_found',
      );
      const readOnly = await world.key(member, ['read:conversation']);
      expectError(await api(t, readOnly).post(retryPath(cId, running.sId)), 403, 'insufficient_key_scope');
      expect(await versionsAt(cId, running.rank)).toHaveLength(1);

      // Once cancelled, it can be retried.
      await api(t, member)
        .post(`${paths.message(wId, cId, running.sId)}/cancel`)
        .expect(200);
      openai.script({ kind: 'stream', chunks: ['Done ', 'now.'] });
      const retried = await api(t, member).post(retryPath(cId, running.sId)).expect(200);
      const list = await until(
        () => world.messages(member, cId),
        (messages) => messages.some((m) => m.sId === retried.body.message.sId && m.status === 'succeeded'),
      );
      expect(list.find((m) => m.type === 'agent_message')!.content).toBe('Done now.');
    });
  });

  describe('editing a user message', () => {
    it('answers the edit again: new versions of its answers, the earlier ones kept', async () => {
      const { cId, message, list } = await answered(member, 'First words', [agents.assistant]);
      const before = list.find((m) => m.type === 'agent_message')!;
      const edited = await api(t, member)
        .post(editPath(cId, message.sId))
        .send({ content: 'Better words', mentions: [{ configurationId: agents.assistant }] })
        .expect(200);
      expect(edited.body).toMatchApiSchema('UserMessageResponse');
      const after = await until(
        () => world.messages(member, cId),
        (messages) =>
          messages.some(
            (m) => m.type === 'agent_message' && m.sId !== before.sId && m.status === 'succeeded',
          ),
      );
      expect(after.map((m) => [m.type, m.rank])).toEqual([
        ['user_message', 0],
        ['agent_message', 1],
      ]);
      expect(after[0].sId).toBe(edited.body.message.sId);
      expect(after[1].parentMessageId).toBe(edited.body.message.sId);
      expect(after[1].content).toContain('Better words');
      expect((await versionsAt(cId, 1)).map((row) => [row.s_id, row.version])).toEqual([
        [before.sId, 0],
        [after[1].sId, 1],
      ]);
      const events = await eventsOf<{ messageId: string; message: { parentMessageId?: string } }>(
        t,
        member,
        cId,
      );
      const announced = events.filter((e) => e.type === 'agent_message_new').map((e) => e.payload);
      expect(announced.map((p) => [p.messageId, p.message.parentMessageId])).toEqual([
        [before.sId, message.sId],
        [after[1].sId, edited.body.message.sId],
      ]);
    });

    it('cancels the answers of agents the edit drops and runs those it adds at new ranks', async () => {
      const { cId, message } = await answered(member, 'Two agents', [agents.assistant, agents.summarizer]);
      openai.script({ kind: 'stream', chunks: ['Hello.'] });
      await api(t, member)
        .post(editPath(cId, message.sId))
        .send({
          content: 'One agent, another one',
          mentions: [{ configurationId: agents.summarizer }, { configurationId: agents.stalling }],
        })
        .expect(200);
      const list = await until(
        () => world.messages(member, cId),
        (messages) =>
          messages.filter((m) => m.type === 'agent_message').length === 3 &&
          messages.every((m) => m.type !== 'agent_message' || m.status !== 'created'),
      );
      expect(list.map((m) => [m.rank, m.configuration?.sId ?? 'user', m.status ?? 'posted'])).toEqual([
        [0, 'user', 'posted'],
        [1, agents.assistant, 'cancelled'],
        [2, agents.summarizer, 'succeeded'],
        [3, agents.stalling, 'succeeded'],
      ]);
      expect(list[1].content).toBe('');
      expectParentsShown(list);
    });

    it('cancels an answer still running when its message is edited', async () => {
      openai.script({ kind: 'stall' });
      const { sId: cId, message } = await world.conversation(member, {
        message: 'Slow',
        mentions: [agents.stalling],
      });
      await until(
        () => world.messages(member, cId),
        (list) => list.some((m) => m.type === 'agent_message'),
      );
      openai.script({ kind: 'stream', chunks: ['Quick.'] });
      await api(t, member)
        .post(editPath(cId, message!.sId))
        .send({ content: 'Quick', mentions: [{ configurationId: agents.stalling }] })
        .expect(200);
      const list = await until(
        () => world.messages(member, cId),
        (messages) => messages.some((m) => m.type === 'agent_message' && m.status === 'succeeded'),
      );
      expect(list[1].content).toBe('Quick.');
      expectParentsShown(list);
      expect((await versionsAt(cId, 1)).map((row) => [row.version, row.status])).toEqual([
        [0, 'cancelled'],
        [1, 'succeeded'],
      ]);
    });
  });

  describe("another member's scheduled wake-up", () => {
    it('holds posts and edits by others with 409; the owner and admins go on', async () => {
      const { sId: cId } = await world.conversation(member, { message: 'Wake me' });
      const theirs = await world.message(other, cId, 'Before the wake-up');
      const wakeUp = await world.wakeUp(member, cId, { agent: agents.assistant });

      const post = (actor: Actor, content: string) =>
        api(t, actor).post(paths.messages(wId, cId)).send({ content, mentions: [], context });
      expectError(await post(other, 'Can I?'), 409, 'invalid_request_error');
      expectError(
        await api(t, other).post(editPath(cId, theirs.sId)).send({ content: 'Edited', mentions: [] }),
        409,
        'invalid_request_error',
      );
      await post(member, 'Mine').expect(200);
      await post(a.admin, 'An admin').expect(200);
      expect((await world.messages(member, cId)).map((m) => m.content)).toEqual([
        'Wake me',
        'Before the wake-up',
        'Mine',
        'An admin',
      ]);

      await api(t, member)
        .delete(paths.wakeUp(wId, cId, wakeUp.sId))
        .expect(200);
      await post(other, 'Now I can').expect(200);
    });
  });
});

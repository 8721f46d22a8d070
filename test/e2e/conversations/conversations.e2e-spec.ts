import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { UNSTORABLE_TEXT_MESSAGE } from 'src/platform/http/storable-text';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

const context = { username: 'ada', timezone: 'Europe/Paris' };

describe('conversations and messages', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let assistantSId: string;
  let wId: string;

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    assistantSId = (await world.globalAgents(a)).assistant;
  });
  afterAll(() => t.close());

  it('creates a conversation with a first message, exactly as specified, and logs its events', async () => {
    const created = await world.conversation(a.admin, {
      message: 'Hello @assistant\nhow are you?',
      mentions: [assistantSId],
      context,
    });
    const { conversation, message } = created as {
      conversation: Record<string, unknown> & { sId: string };
      message: Record<string, unknown> & { sId: string };
    };
    expect(conversation).toMatchObject({
      depth: 0,
      title: 'Hello @assistant',
      unread: false,
      hasError: false,
      actionRequired: false,
      spaceId: null,
      triggerId: null,
      metadata: {},
      requestedSpaceIds: [],
      forkingData: { forkedFrom: null, forkedChildren: [] },
    });
    expect(message).toMatchApiSchema('UserMessage');
    expect(message).toMatchObject({
      type: 'user_message',
      version: 0,
      rank: 0,
      visibility: 'visible',
      content: 'Hello @assistant\nhow are you?',
      user: { sId: a.admin.user.sId, fullName: a.admin.user.fullName },
      mentions: [{ configurationId: assistantSId }],
      richMentions: [
        expect.objectContaining({
          id: assistantSId,
          type: 'agent',
          label: 'assistant',
          dismissed: false,
          userFavorite: false,
        }),
      ],
      context: {
        username: 'ada',
        timezone: 'Europe/Paris',
        origin: 'api',
        fullName: a.admin.user.fullName,
        email: a.admin.user.email,
      },
      reactions: [],
    });
    expect(message.sId).toMatch(/^[0-9A-Za-z]{10}$/);

    // The runtime then answers the mention (agent events follow; see the runtime suite).
    const log = await eventsOf(t, a.admin, conversation.sId);
    expect(log.map((event) => event.type).slice(0, 2)).toEqual(['user_message_new', 'conversation_title']);
    expect(log[0].payload).toEqual({
      type: 'user_message_new',
      created: message.created,
      messageId: message.sId,
      message,
    });
    expect(log[1].payload).toMatchObject({ type: 'conversation_title', title: 'Hello @assistant' });

    const got = await api(t, a.admin).get(paths.conversation(wId, conversation.sId)).expect(200);
    expect(got.body).toMatchApiSchema('ConversationResponse');
    expect(got.body.conversation).not.toHaveProperty('content');
  });

  it('posts, lists, edits twice in a row, reacts and marks read', async () => {
    const { conversation } = await world.conversation(member, { title: 'Planning' });
    const path = paths.conversation(wId, conversation.sId);
    const first = await api(t, member)
      .post(`${path}/messages`)
      .send({ content: 'one', mentions: [], context })
      .expect(200);
    expect(first.body).toMatchApiSchema('UserMessageResponse');
    const second = await api(t, member)
      .post(`${path}/messages`)
      .send({ content: 'two', mentions: [], context })
      .expect(200);
    expect([first.body.message.rank, second.body.message.rank]).toEqual([0, 1]);

    const edited = await api(t, member)
      .post(`${path}/messages/${first.body.message.sId}/edit`)
      .send({ content: 'one, edited', mentions: [{ configurationId: assistantSId }] })
      .expect(200);
    expect(edited.body).toMatchApiSchema('UserMessageResponse');
    expect(edited.body.message).toMatchObject({ rank: 0, version: 1, content: 'one, edited' });
    expect(edited.body.message.sId).not.toBe(first.body.message.sId);
    expect(edited.body.message.richMentions).toHaveLength(1);

    const stale = await api(t, member)
      .post(`${path}/messages/${first.body.message.sId}/edit`)
      .send({ content: 'again', mentions: [] })
      .expect(400);
    expect(stale.body.error.type).toBe('invalid_request_error');
    await api(t, member)
      .post(`${path}/messages/${edited.body.message.sId}/edit`)
      .send({ content: 'one, edited twice', mentions: [] })
      .expect(200);

    const listed = await api(t, member).get(`${path}/messages`).expect(200);
    expect(listed.body).toMatchApiSchema('MessagesResponse');
    const userMessages = (
      listed.body.messages as { type: string; content: string; version: number }[]
    ).filter((m) => m.type === 'user_message');
    expect(userMessages.map((m) => [m.content, m.version])).toEqual([
      ['one, edited twice', 2],
      ['two', 0],
    ]);

    const reacted = await api(t, a.admin)
      .post(`${path}/messages/${second.body.message.sId}/reactions`)
      .send({ emoji: '👍' })
      .expect(200);
    expect(reacted.body).toMatchApiSchema('MessageResponse');
    expect(reacted.body.message.reactions).toEqual([
      {
        emoji: '👍',
        users: [
          { userId: a.admin.user.sId, username: a.admin.user.username, fullName: a.admin.user.fullName },
        ],
      },
    ]);
    const unreacted = await api(t, a.admin)
      .delete(`${path}/messages/${second.body.message.sId}/reactions`)
      .send({ emoji: '👍' })
      .expect(200);
    expect(unreacted.body.message.reactions).toEqual([]);

    const unread = await api(t, member).patch(path).send({ read: false }).expect(200);
    expect(unread.body.conversation).toMatchObject({ unread: true, lastReadMs: null });
    const read = await api(t, member).patch(path).send({ read: true, title: 'Renamed' }).expect(200);
    expect(read.body).toMatchApiSchema('ConversationResponse');
    expect(read.body.conversation).toMatchObject({
      unread: false,
      title: 'Renamed',
      lastReadMs: expect.any(Number),
    });

    const log = (await eventsOf(t, member, conversation.sId)).filter((event) =>
      ['user_message_new', 'conversation_title'].includes(event.type),
    );
    expect(log.map((event) => event.type)).toEqual([
      'conversation_title',
      'user_message_new',
      'user_message_new',
      'user_message_new',
      'user_message_new',
      'conversation_title',
    ]);
    expect((log[3].payload.message as { version: number }).version).toBe(1);
  });

  it('takes only emoji, emoji ids or :shortcodes: as reactions, and at most 20 different ones per message', async () => {
    const { conversation } = await world.conversation(member, { title: 'Reactions' });
    const path = paths.conversation(wId, conversation.sId);
    const posted = await world.message(member, conversation.sId, 'react to me', { context });
    const reactions = `${path}/messages/${posted.sId}/reactions`;
    const stored = async () =>
      (
        await t.dataSource.query<{ emoji: string }[]>(
          `SELECT r.emoji FROM message_reactions r JOIN messages m ON m.id = r.message_id WHERE m.s_id = $1
           ORDER BY r.created_at, r.emoji`,
          [posted.sId],
        )
      ).map((row) => row.emoji);
    const refused = async (actor: Actor, emoji: string, message: RegExp) => {
      const res = await api(t, actor).post(reactions).send({ emoji });
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error.message).toMatch(message);
    };

    for (const emoji of ['👍👍', 'x👍', ':not a code:', 'Ledger\u200b', 'thumbs up', 'a.b']) {
      await refused(member, emoji, /^emoji: must be one emoji/);
    }
    expect(await stored()).toEqual([]);

    // The text form of an emoji is the same reaction as its emoji form.
    const hearts = await api(t, member).post(reactions).send({ emoji: '❤' }).expect(200);
    expect(hearts.body).toMatchApiSchema('MessageResponse');
    await api(t, a.admin).post(reactions).send({ emoji: '❤️' }).expect(200);
    const grouped = await api(t, member).post(reactions).send({ emoji: ':tada:' }).expect(200);
    expect(
      (grouped.body.message.reactions as { emoji: string; users: unknown[] }[]).map((r) => [
        r.emoji,
        r.users.length,
      ]),
    ).toEqual([
      ['❤️', 2],
      ['tada', 1],
    ]);

    // 18 more different emoji fill the cap of 20; the 21st is refused, already-given emoji still count.
    const more = ['👍🏽', '🇫🇷', '👨‍👩‍👧', '🏳️‍🌈', '1️⃣', ':+1:'].concat(
      Array.from({ length: 12 }, (_, i) => `:custom_${i}:`),
    );
    for (const emoji of more) await api(t, member).post(reactions).send({ emoji }).expect(200);
    expect(new Set(await stored()).size).toBe(20);
    await refused(a.admin, '🚀', /already has 20 different reactions/);
    await refused(member, ':one_too_many:', /already has 20 different reactions/);
    const joined = await api(t, a.admin).post(reactions).send({ emoji: ':tada:' }).expect(200);
    expect(joined.body).toMatchApiSchema('MessageResponse');
    expect(new Set(await stored()).size).toBe(20);
    expect((await stored()).length).toBe(22);

    // Removing by the text form removes the emoji form; then a new emoji fits again.
    const removed = await api(t, member).delete(reactions).send({ emoji: '❤' }).expect(200);
    expect(removed.body).toMatchApiSchema('MessageResponse');
    await api(t, a.admin).delete(reactions).send({ emoji: '❤' }).expect(200);
    await api(t, member).post(reactions).send({ emoji: '🚀' }).expect(200);
    expect(await stored()).not.toContain('❤️');
    expect(new Set(await stored()).size).toBe(20);
  });

  it('keeps the cap of different reactions under concurrent reactions', async () => {
    const { conversation } = await world.conversation(member, { title: 'Racing reactions' });
    const path = paths.conversation(wId, conversation.sId);
    const posted = await world.message(member, conversation.sId, 'race', { context });
    const reactions = `${path}/messages/${posted.sId}/reactions`;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api(t, member)
          .post(reactions)
          .send({ emoji: `:race_${i}:` }),
      ),
    );
    expect(answers.filter((res) => res.status === 200)).toHaveLength(20);
    expect(answers.filter((res) => res.status === 400)).toHaveLength(10);
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(
      `SELECT count(DISTINCT r.emoji)::int AS n FROM message_reactions r JOIN messages m ON m.id = r.message_id
       WHERE m.s_id = $1`,
      [posted.sId],
    );
    expect(n).toBe(20);
  });

  it('lists the caller conversations newest first, with a cursor', async () => {
    const actor = await world.member(a.workspace, 'builder');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await world.conversation(actor, { title: `c${i}` })).sId);
    const page1 = await api(t, actor)
      .get(`${paths.conversations(wId)}?limit=3`)
      .expect(200);
    expect(page1.body).toMatchApiSchema('ConversationsResponse');
    const page2 = await api(t, actor)
      .get(`${paths.conversations(wId)}?limit=3&cursor=${page1.body.nextCursor}`)
      .expect(200);
    const sIds = [...page1.body.conversations, ...page2.body.conversations].map(
      (c: { sId: string }) => c.sId,
    );
    expect(sIds).toEqual([...made].reverse());
    expect(page2.body.nextCursor).toBeNull();
    await api(t, actor)
      .get(`${paths.conversations(wId)}?cursor=garbage`)
      .expect(400);
  });

  it('forks after a message', async () => {
    const { conversation, messages } = await world.conversation(a.admin, {
      title: 'Origin',
      messages: ['a', 'b', 'c'],
      context,
    });
    const path = paths.conversation(wId, conversation.sId);
    const sent = messages.map((message) => message.sId);
    const fork = await api(t, member).post(`${path}/fork`).send({ sourceMessageId: sent[1] }).expect(200);
    expect(fork.body).toMatchApiSchema('ConversationResponse');
    expect(fork.body.conversation).toMatchObject({
      depth: 1,
      forkingData: {
        forkedFrom: {
          parentConversationId: conversation.sId,
          parentConversationTitle: 'Origin',
          sourceMessageId: sent[1],
          fileCopyStatus: 'pending',
          user: expect.objectContaining({ sId: member.user.sId, email: member.user.email }),
        },
      },
    });
    const child = fork.body.conversation.sId as string;
    const childMessages = await api(t, member).get(paths.messages(wId, child)).expect(200);
    expect((childMessages.body.messages as { content: string }[]).map((m) => m.content)).toEqual(['a', 'b']);
    const parent = await api(t, a.admin).get(path).expect(200);
    expect(parent.body.conversation.forkingData.forkedChildren).toEqual([
      expect.objectContaining({ childConversationId: child, sourceMessageId: sent[1] }),
    ]);
    const later = await api(t, member).get(paths.conversation(wId, child)).expect(200);
    expect(later.body.conversation.forkingData.forkedFrom.fileCopyStatus).toBe('completed');
  });

  it('gives 200 concurrent posts 200 distinct consecutive ranks', async () => {
    const { conversation } = await world.conversation(a.admin);
    const path = paths.messages(wId, conversation.sId);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        api(t, a.admin)
          .post(path)
          .send({ content: `m${i}`, mentions: [], context }),
      ),
    );
    expect(results.filter((res) => res.status !== 200)).toEqual([]);
    const ranks = results.map((res) => res.body.message.rank as number).sort((x, y) => x - y);
    expect(ranks).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  describe('access', () => {
    it('lets only the author edit', async () => {
      const { conversation, message } = await world.conversation(a.admin, { message: 'mine', context });
      const res = await api(t, member)
        .post(`${paths.message(wId, conversation.sId, message!.sId)}/edit`)
        .send({ content: 'yours', mentions: [] })
        .expect(403);
      expect(res.body.error.type).toBe('workspace_auth_error');
    });

    it('restricts readers to members of the spaces the mentioned agents need', async () => {
      const { spaceSId, agentSId } = await world.agentNeedingSpace(a.admin);
      const { conversation } = await world.conversation(a.admin, {
        message: 'open',
        mentions: [agentSId],
        context,
      });
      const full = await api(t, a.admin).get(paths.conversation(wId, conversation.sId)).expect(200);
      expect(full.body.conversation.requestedSpaceIds).toEqual([spaceSId]);
      for (const path of [paths.conversation(wId, conversation.sId), paths.messages(wId, conversation.sId)]) {
        const res = await api(t, member).get(path).expect(403);
        expect(res.body.error.type).toBe('conversation_access_restricted');
      }
      const mention = await api(t, member)
        .post(paths.conversations(wId))
        .send({
          message: {
            content: 'hi',
            mentions: [{ configurationId: agentSId }],
            context,
          },
        })
        .expect(400);
      expect(mention.body.error.message).toContain(agentSId);
    });

    it("leaves out of a member's list the conversations that came to need a space they lack", async () => {
      const { agentSId } = await world.agentNeedingSpace(a.admin);
      const reader = await world.member(a.workspace, 'user');
      const { sId: cId } = await world.conversation(a.admin, { message: 'open to all', context });
      await world.message(reader, cId, 'count me in', { context });
      const listed = async (path: string) =>
        ((await api(t, reader).get(path).expect(200)).body.conversations as { sId: string }[]).map(
          (c) => c.sId,
        );
      const families = [paths.conversations(wId), paths.conversations(wId).replace('/api/w/', '/api/v1/w/')];
      for (const path of families) expect(await listed(path)).toContain(cId);

      await world.message(a.admin, cId, 'for the vault', { mentions: [agentSId], context });
      for (const path of families) expect(await listed(path)).not.toContain(cId);
      const ownList = await api(t, a.admin).get(paths.conversations(wId)).expect(200);
      expect((ownList.body.conversations as { sId: string }[]).map((c) => c.sId)).toContain(cId);
      // The list is filtered as it is read: the hidden conversation does not even leave a next page.
      const { sId: later } = await world.conversation(reader, { title: 'later' });
      const page = await api(t, reader)
        .get(`${paths.conversations(wId)}?limit=1`)
        .expect(200);
      expect(page.body).toMatchObject({
        conversations: [expect.objectContaining({ sId: later })],
        nextCursor: null,
      });
    });

    it('keeps conversations inside their workspace and answers unknown ids with 404', async () => {
      const { conversation, message } = await world.conversation(a.admin, { message: 'private', context });
      const foreign = await api(t, b.admin).get(paths.conversation(wId, conversation.sId)).expect(401);
      expect(foreign.body.error.type).toBe('workspace_auth_error');
      const own = paths.conversations(b.workspace.sId);
      const notFound = await api(t, b.admin).get(`${own}/${conversation.sId}`).expect(404);
      expect(notFound.body.error.type).toBe('conversation_not_found');
      const list = await api(t, b.admin).get(own).expect(200);
      expect(JSON.stringify(list.body)).not.toContain(conversation.sId);
      const missing = await api(t, a.admin)
        .post(`${paths.message(wId, conversation.sId, 'nope123456')}/edit`)
        .send({ content: 'x', mentions: [] })
        .expect(404);
      expect(missing.body.error.type).toBe('message_not_found');
      await api(t, a.admin).get(paths.messages(wId, 'doesNotExist')).expect(404);
      expect(message).toBeDefined();
    });

    it('refuses malformed bodies and writes nothing', async () => {
      const { conversation } = await world.conversation(a.admin);
      const path = paths.messages(wId, conversation.sId);
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM messages');
      for (const body of [
        { content: '', mentions: [], context },
        { content: 'x', mentions: [], context: { username: 'a' } },
        { content: 'x', mentions: [{ configurationId: assistantSId, userId: member.user.sId }], context },
        { content: 'x', mentions: [{ type: 'user', userId: 'nobody9999' }], context },
        { content: 'x', mentions: [{ configurationId: 'unknown123' }], context },
        { content: 'x', mentions: [], context, extra: true },
        { content: 42, mentions: [], context },
      ]) {
        const res = await api(t, a.admin).post(path).send(body);
        expect({ status: res.status, type: res.body.error?.type }).toEqual({
          status: 400,
          type: 'invalid_request_error',
        });
      }
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM messages')).toEqual(before);
    });

    it('refuses a context timezone that is not an IANA zone, naming the field, and writes nothing', async () => {
      const { conversation } = await world.conversation(a.admin);
      // Messages counted in this conversation: agents answering earlier tests may still be writing.
      const counts = async () =>
        (
          await t.dataSource.query(
            `SELECT (SELECT count(*)::int FROM conversations) AS conversations,
                    (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id
                     WHERE c.s_id = $1) AS messages`,
            [conversation.sId],
          )
        )[0] as { conversations: number; messages: number };
      const before = await counts();
      for (const timezone of ['Mars/Olympus_Mons', '+01:00', 'not a zone', '']) {
        const posted = await api(t, a.admin)
          .post(paths.messages(wId, conversation.sId))
          .send({ content: 'x', mentions: [], context: { username: 'ada', timezone } });
        expect({ status: posted.status, body: posted.body }).toEqual({
          status: 400,
          body: {
            error: { type: 'invalid_request_error', message: expect.stringMatching(/^context\.timezone: /) },
          },
        });
        expect(posted.body).toMatchApiSchema('ErrorResponse');
        const created = await api(t, a.admin)
          .post(paths.conversations(wId))
          .send({ message: { content: 'x', mentions: [], context: { username: 'ada', timezone } } });
        expect({ status: created.status, body: created.body }).toEqual({
          status: 400,
          body: {
            error: {
              type: 'invalid_request_error',
              message: expect.stringMatching(/^message\.context\.timezone: /),
            },
          },
        });
      }
      expect(await counts()).toEqual(before);
      const accepted = await api(t, a.admin)
        .post(paths.messages(wId, conversation.sId))
        .send({
          content: 'x',
          mentions: [],
          context: { username: 'ada', timezone: 'America/Argentina/Buenos_Aires' },
        })
        .expect(200);
      expect(accepted.body).toMatchApiSchema('UserMessageResponse');
    });

    it('refuses a body that is not JSON with 415 and creates nothing', async () => {
      const before = await t.dataSource.query('SELECT count(*)::int AS n FROM conversations');
      for (const [type, body] of [
        ['text/plain', 'hello'],
        ['application/x-www-form-urlencoded', 'title=hello'],
        [undefined, '{"title":"no content type"}'],
      ] as const) {
        const req = api(t, a.admin).post(paths.conversations(wId));
        if (type) void req.set('Content-Type', type);
        else void req.unset('Content-Type');
        const res = await req.send(Buffer.from(body));
        expect({ status: res.status, body: res.body }).toEqual({
          status: 415,
          body: { error: { type: 'unsupported_media_type', message: expect.stringContaining('JSON') } },
        });
      }
      expect(await t.dataSource.query('SELECT count(*)::int AS n FROM conversations')).toEqual(before);
    });

    it('keeps reading conversations after a migration changes a column type under prepared reads', async () => {
      const created = await Promise.all(Array.from({ length: 6 }, () => world.conversation(a.admin)));
      const readAll = () =>
        Promise.all(
          created.map(({ conversation }) => api(t, a.admin).get(paths.conversation(wId, conversation.sId))),
        );
      expect((await readAll()).map((res) => res.status)).toEqual(created.map(() => 200));
      const [{ type }] = await t.dataSource.query<{ type: string }[]>(
        `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
         WHERE attrelid = 'conversations'::regclass AND attname = 'title'`,
      );
      await t.dataSource.query('ALTER TABLE conversations ALTER COLUMN title TYPE varchar(4000)');
      try {
        expect((await readAll()).map((res) => res.status)).toEqual(created.map(() => 200));
      } finally {
        await t.dataSource.query(`ALTER TABLE conversations ALTER COLUMN title TYPE ${type}`);
      }
    });

    it('refuses text PostgreSQL cannot store with 400, naming the field, and writes nothing', async () => {
      const { conversation } = await world.conversation(a.admin);
      const path = paths.conversation(wId, conversation.sId);
      // Counted in this conversation: agents answering earlier tests may still be writing elsewhere.
      const counts = () =>
        t.dataSource.query(
          `SELECT (SELECT count(*)::int FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.s_id = $1) AS messages,
                  (SELECT count(*)::int FROM conversation_events e JOIN conversations c ON c.id = e.conversation_id WHERE c.s_id = $1) AS events`,
          [conversation.sId],
        );
      const before = await counts();
      for (const [body, field] of [
        [{ content: 'a\u0000b', mentions: [], context }, 'content'],
        [{ content: 'a\ud800b', mentions: [], context }, 'content'],
        [{ content: 'x', mentions: [], context: { ...context, username: 'ada\u0000' } }, 'context.username'],
      ] as const) {
        const res = await api(t, a.admin).post(`${path}/messages`).send(body).expect(400);
        expect(res.body).toEqual({
          error: { type: 'invalid_request_error', message: `${field}: ${UNSTORABLE_TEXT_MESSAGE}` },
        });
      }
      await api(t, a.admin).patch(path).send({ title: 'low \udc00 surrogate' }).expect(400);
      const url = await api(t, a.admin)
        .get(`${paths.conversation(wId, conversation.sId)}%00`)
        .expect(400);
      expect(url.body.error.type).toBe('invalid_request_error');
      expect(await counts()).toEqual(before);
      const paired = await api(t, a.admin)
        .post(`${path}/messages`)
        .send({ content: 'a pair is fine \u{1f4a5}', mentions: [], context })
        .expect(200);
      expect(paired.body.message.content).toBe('a pair is fine \u{1f4a5}');
    });
  });
});

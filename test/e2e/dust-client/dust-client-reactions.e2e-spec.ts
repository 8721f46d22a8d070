import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';
import { ReactionShortcodesAsIds1795700000100 } from '../../../migrations/1795700000100-ReactionShortcodesAsIds';

/** Reactions as Dust's UI and client send them: `{"reaction": "<emoji-mart id>"}`, on both families. */
describe("reactions in Dust's form", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let wId: string;

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
  });
  afterAll(() => t.close());

  /** A member's conversation and message to react to (built over plain HTTP: the shapes are not under test here). */
  async function reactedMessage() {
    const created = await api(t, member)
      .post(paths.conversations(wId))
      .send({ title: 'Reactions' })
      .expect(200);
    const cId = created.body.conversation.sId as string;
    const posted = await api(t, member)
      .post(paths.messages(wId, cId))
      .send({ content: 'react to me', mentions: [], context: { username: 'ada', timezone: 'UTC' } })
      .expect(200);
    const mId = posted.body.message.sId as string;
    const spec = `${paths.message(wId, cId, mId)}/reactions`;
    return { cId, mId, spec, v1: spec.replace('/api/w/', '/api/v1/w/') };
  }

  const stored = async (mId: string) =>
    (
      await t.dataSource.query<{ emoji: string }[]>(
        `SELECT r.emoji FROM message_reactions r JOIN messages m ON m.id = r.message_id WHERE m.s_id = $1
         ORDER BY r.created_at, r.emoji`,
        [mId],
      )
    ).map((row) => row.emoji);

  it('takes emoji-mart ids under `reaction`, the same reaction as their :shortcode: and emoji-key forms', async () => {
    const { mId, v1, spec } = await reactedMessage();
    const plusOne = await api(t, member).post(v1).send({ reaction: '+1' }).expect(200);
    expect(plusOne.body).toMatchApiSchema('MessageResponse');
    expect(plusOne.body.message.reactions).toEqual([
      { emoji: '+1', users: [expect.objectContaining({ username: member.user.username })] },
    ]);
    await api(t, a.admin).post(spec).send({ emoji: ':+1:' }).expect(200);
    for (const reaction of ['heart', 'tada', '-1', 'flag-fr']) {
      await api(t, member).post(v1).send({ reaction }).expect(200);
    }
    const grouped = await api(t, member).post(v1).send({ reaction: 'tada' }).expect(200);
    expect(
      (grouped.body.message.reactions as { emoji: string; users: unknown[] }[]).map((r) => [
        r.emoji,
        r.users.length,
      ]),
    ).toEqual([
      ['+1', 2],
      ['heart', 1],
      ['tada', 1],
      ['-1', 1],
      ['flag-fr', 1],
    ]);

    // Removal under either key, in either spelling.
    await api(t, member).delete(v1).send({ reaction: ':+1:' }).expect(200);
    const removed = await api(t, a.admin).delete(spec).send({ reaction: '+1' }).expect(200);
    expect(removed.body).toMatchApiSchema('MessageResponse');
    expect(await stored(mId)).toEqual(['heart', 'tada', '-1', 'flag-fr']);
  });

  it('answers 400 naming the key for a body that is not exactly one short id, storing nothing', async () => {
    const { mId, v1 } = await reactedMessage();
    const refused = async (body: unknown, message: RegExp) => {
      const res = await api(t, member)
        .post(v1)
        .send(body as object);
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error.message).toMatch(message);
    };
    await refused({}, /^emoji, reaction: give exactly one of them\.$/);
    await refused({ emoji: '👍', reaction: '+1' }, /exactly one/);
    await refused({ reaction: '+1', colour: 'red' }, /colour/);
    await refused({ reaction: 1 }, /reaction/);
    await refused({ reaction: '' }, /reaction/);
    await refused({ reaction: 'a'.repeat(65) }, /reaction/);
    for (const reaction of ['thumbs up', 'ok\u200b', 'ok\u202e', 'ok\n', '\u3164', '<b>', '👍👍', 'x👍']) {
      await refused({ reaction }, /^reaction: must be one emoji/);
    }
    await refused({ emoji: 'ok\u2066' }, /^emoji: must be one emoji/);
    expect(await stored(mId)).toEqual([]);
  });

  it('is 404 from another workspace and 403 for a key without write:conversation', async () => {
    const { cId, mId, v1 } = await reactedMessage();
    const foreign = await api(t, b.admin)
      .post(`/api/v1/w/${b.workspace.sId}/assistant/conversations/${cId}/messages/${mId}/reactions`)
      .send({ reaction: '+1' });
    expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
      status: 404,
      type: 'conversation_not_found',
    });
    const readOnly = await world.key({ user: member.user, workspace: a.workspace }, ['read:conversation']);
    const scoped = await api(t, readOnly).post(v1).send({ reaction: '+1' });
    expect({ status: scoped.status, type: scoped.body.error?.type }).toEqual({
      status: 403,
      type: 'insufficient_key_scope',
    });
    expect(await stored(mId)).toEqual([]);
  });

  it('migrates reactions stored as :shortcodes: to their ids, one row where a member gave both', async () => {
    const { mId, spec } = await reactedMessage();
    await api(t, member).post(spec).send({ emoji: '👍' }).expect(200);
    await api(t, member).post(spec).send({ emoji: 'tada' }).expect(200);
    // Rows as the earlier rule stored them.
    await t.dataSource.query(
      `INSERT INTO message_reactions (message_id, user_id, emoji, workspace_id)
       SELECT m.id, r.user_id, e.emoji, r.workspace_id FROM messages m
       JOIN message_reactions r ON r.message_id = m.id AND r.emoji = '👍'
       CROSS JOIN (VALUES (':tada:'), (':white_check_mark:')) AS e(emoji) WHERE m.s_id = $1`,
      [mId],
    );
    const runner = t.dataSource.createQueryRunner();
    try {
      await new ReactionShortcodesAsIds1795700000100().up(runner);
    } finally {
      await runner.release();
    }
    expect((await stored(mId)).sort()).toEqual(['tada', 'white_check_mark', '👍'].sort());
  });
});

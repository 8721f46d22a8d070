import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DustAPI } from '@dust-tt/client';
import { freePort } from 'src/platform/net/free-port';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

type Result<T> = { isOk(): boolean; isErr(): boolean; value?: T; error?: unknown };

/** The value of a result the client parsed with its own schemas, or a failure showing its error. */
function ok<T>(result: Result<T>): T {
  expect({ ok: result.isOk(), error: result.isErr() ? result.error : undefined }).toEqual({
    ok: true,
    error: undefined,
  });
  return result.value as T;
}

const quiet = { error: () => {}, info: () => {}, trace: () => {}, warn: () => {} };

/** Mention suggestions and parsing as Dust's client 1.2.8 calls them, on the public family. */
describe("mentions through Dust's client", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let grace: Actor;
  let wId: string;
  let dust: DustAPI;
  let supportBot: string;
  let vaultKeeper: string;

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestApp({ env: { PUBLIC_BASE_URL: `http://127.0.0.1:${port}` } });
    await t.app.listen(port, '127.0.0.1');
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    grace = await world.member(a.workspace, 'builder');
    dust = new DustAPI(
      { url: `http://127.0.0.1:${port}` },
      { apiKey: member.secret, workspaceId: wId },
      quiet,
    );
    supportBot = (await world.agent(a.admin, { name: 'support-bot', description: 'Answers about refunds.' }))
      .sId;
    await world
      .agent(a.admin, { name: 'support-archived' })
      .then(({ sId }) => api(t, a.admin).delete(paths.agent(wId, sId)).expect(200));
    vaultKeeper = (await world.agentNeedingSpace(a.admin)).agentSId;
    await world.agent(b.admin, { name: 'support-elsewhere' });
  });
  afterAll(() => t.close());

  it('suggests the agents of the caller’s list it can mention, and the members, without their emails', async () => {
    const suggestions = ok(await dust.getMentionsSuggestions({ query: 'supp' }));
    expect(suggestions).toEqual([
      {
        id: supportBot,
        type: 'agent',
        label: 'support-bot',
        pictureUrl: expect.any(String),
        description: 'Answers about refunds.',
        userFavorite: false,
      },
    ]);

    const everyone = ok(await dust.getMentionsSuggestions({ query: '' }));
    const ids = everyone.map((suggestion) => suggestion.id);
    // Not the agent needing a space the member cannot access, not the archived one, not the caller.
    expect(ids).not.toContain(vaultKeeper);
    expect(everyone.some((s) => s.label === 'support-archived' || s.label === 'support-elsewhere')).toBe(
      false,
    );
    expect(ids).not.toContain(member.user.sId);
    expect(
      everyone
        .filter((s) => s.type === 'user')
        .map((s) => s.id)
        .sort(),
    ).toEqual([a.admin.user.sId, grace.user.sId].sort());
    expect(JSON.stringify(everyone)).not.toContain('@example.com');

    const users = ok(
      await dust.getMentionsSuggestions({ query: grace.user.username, select: ['users'], current: true }),
    );
    expect(users).toEqual([
      {
        id: grace.user.sId,
        type: 'user',
        label: grace.user.fullName,
        pictureUrl: expect.any(String),
        description: grace.user.username,
      },
    ]);
    const self = ok(
      await dust.getMentionsSuggestions({ query: member.user.fullName, select: 'users', current: true }),
    );
    expect(self.map((s) => s.id)).toEqual([member.user.sId]);
    expect(ok(await dust.getMentionsSuggestions({ query: member.user.fullName, select: 'users' }))).toEqual(
      [],
    );
  });

  it('puts a conversation’s participants first, for readers of that conversation only', async () => {
    const created = await api(t, member)
      .post(paths.conversations(wId))
      .send({ title: 'Mentions' })
      .expect(200);
    const cId = created.body.conversation.sId as string;
    await api(t, grace)
      .post(paths.messages(wId, cId))
      .send({ content: 'hello', mentions: [], context: { username: 'grace', timezone: 'UTC' } })
      .expect(200);
    const inConversation = ok(
      await dust.getMentionsSuggestions({ query: '', select: ['users'], conversationId: cId }),
    );
    expect(inConversation[0].id).toBe(grace.user.sId);

    const foreign = await api(t, b.admin).get(
      `/api/v1/w/${b.workspace.sId}/assistant/conversations/${cId}/mentions/suggestions?query=`,
    );
    expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
      status: 404,
      type: 'conversation_not_found',
    });
    expect(foreign.body).toMatchApiSchema('ErrorResponse');
  });

  it('parses @names of mentionable agents into Dust’s format, leaving the others as typed', async () => {
    const vaultName = (await api(t, a.admin).get(paths.agent(wId, vaultKeeper)).expect(200)).body
      .agentConfiguration.name as string;
    const markdown = ok(
      await dust.parseForMentions({
        markdown: `Hi @Support-Bot, ask @${vaultName} and @${grace.user.username}; mail x@support-bot.`,
      }),
    );
    expect(markdown).toBe(
      `Hi :mention[support-bot]{sId=${supportBot}}, ask @${vaultName} and @${grace.user.username}; mail x@support-bot.`,
    );
  });

  it('answers 400 for unknown keys and out-of-bounds values, 403 without read:agent, 401 for another workspace', async () => {
    const v1 = `/api/v1/w/${wId}/assistant/mentions`;
    const refused = async (
      res: { status: number; body: { error?: { type: string; message: string } } },
      field: RegExp,
    ) => {
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error!.message).toMatch(field);
    };
    await refused(await api(t, member).get(`${v1}/suggestions`), /query/);
    await refused(await api(t, member).get(`${v1}/suggestions?query=a&limit=3`), /limit/);
    await refused(await api(t, member).get(`${v1}/suggestions?query=${'a'.repeat(129)}`), /query/);
    await refused(await api(t, member).get(`${v1}/suggestions?query=a&select=files`), /select/);
    await refused(await api(t, member).get(`${v1}/suggestions?query=a&current=yes`), /current/);
    await refused(await api(t, member).post(`${v1}/parse`).send({}), /markdown/);
    await refused(await api(t, member).post(`${v1}/parse`).send({ markdown: 'x', html: 'y' }), /html/);
    await refused(
      await api(t, member)
        .post(`${v1}/parse`)
        .send({ markdown: 'x'.repeat(100_001) }),
      /markdown/,
    );

    const noAgentScope = await world.key({ user: member.user, workspace: a.workspace }, [
      'read:conversation',
    ]);
    for (const res of [
      await api(t, noAgentScope).get(`${v1}/suggestions?query=a`),
      await api(t, noAgentScope).post(`${v1}/parse`).send({ markdown: '@support-bot' }),
    ]) {
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 403,
        type: 'insufficient_key_scope',
      });
    }
    const otherKey = await api(t, b.admin).get(`${v1}/suggestions?query=a`);
    expect(otherKey.status).toBe(401);
  });
});

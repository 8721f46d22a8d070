import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DustAPI, type ConversationPublicType } from '@dust-tt/client';
import { freePort } from 'src/platform/net/free-port';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, KeyHolder, World, WorkspaceFixture, api } from 'test/support/world';

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
const context = { username: 'ada', timezone: 'UTC' };
/** The text of a conversation's fragments a run gives the model, in this file. */
const BUDGET_BYTES = 2048;

/** Content fragments naming a data source document (`nodeId`), as Dust's client 1.2.8 sends them. */
describe("data source documents in a conversation, through Dust's client", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let base: string;
  let agent: string;
  const openai = new FakeOpenAi();
  /** The global space's view of the handbook, and a view of the ledger showing only its reports. */
  let handbookView: string;
  let reportsView: string;
  /** The ledger's own view, in a space only the admin is in. */
  let ledgerView: string;
  let financeSpace: string;

  const client = (actor: KeyHolder) =>
    new DustAPI({ url: base }, { apiKey: actor.secret, workspaceId: actor.workspace.sId }, quiet);
  const count = async (table: string) =>
    Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM ${table}`))[0].n);

  async function upsert(space: string, dataSource: string, id: string, body: Record<string, unknown>) {
    await api(t, a.admin)
      .post(`/api/v1/w/${wId}/spaces/${space}/data_sources/${dataSource}/documents/${id}`)
      .send(body)
      .expect(200);
  }

  /** The user turns of the model request made while `act` ran, once the conversation answered. */
  async function userTurnsOf(act: () => Promise<string>): Promise<unknown[]> {
    const before = openai.requests.length;
    openai.script({ kind: 'stream', chunks: ['Noted.'] });
    const cId = await act();
    await world.settled(member, cId);
    const messages = openai.requests[before].body.messages as { role: string; content: unknown }[];
    return messages.filter((m) => m.role === 'user').map((m) => m.content);
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({
      env: {
        PUBLIC_BASE_URL: base,
        OPENAI_BASE_URL: await openai.start(),
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        CONTENT_FRAGMENT_BUDGET_BYTES: BUDGET_BYTES,
      },
    });
    await t.app.listen(port, '127.0.0.1');
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    agent = (
      await world.agent(a.admin, {
        instructions: 'Read the documents.',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      })
    ).sId;
    const globalSpace = await world.globalSpace(a.admin);
    financeSpace = (await world.space(a.admin, { name: 'Finance', members: [a.admin] })).sId;
    const create = async (space: string, name: string) =>
      (await api(t, a.admin).post(`/api/w/${wId}/spaces/${space}/data_sources`).send({ name }).expect(200))
        .body as { dataSource: { sId: string }; dataSourceView: { sId: string } };
    const handbook = await create(globalSpace, 'Handbook');
    const ledger = await create(financeSpace, 'Ledger');
    handbookView = handbook.dataSourceView.sId;
    ledgerView = ledger.dataSourceView.sId;
    reportsView = (
      await api(t, a.admin)
        .post(`/api/w/${wId}/spaces/${globalSpace}/data_source_views`)
        .send({ dataSourceId: ledger.dataSource.sId, parentsIn: ['reports'] })
        .expect(200)
    ).body.dataSourceView.sId as string;
    await upsert(globalSpace, handbook.dataSource.sId, 'refund-policy', {
      title: 'Refund policy',
      text: 'Refunds are paid within 30 days.',
      source_url: 'https://intranet.example.com/refunds',
      mime_type: 'text/markdown',
    });
    await upsert(globalSpace, handbook.dataSource.sId, 'long-manual', {
      title: 'Long manual',
      text: 'é'.repeat(3000),
    });
    await upsert(financeSpace, ledger.dataSource.sId, 'q3-report', {
      title: 'Q3 report',
      text: 'Revenue grew 12%.',
      parents: ['q3-report', 'reports'],
    });
    await upsert(financeSpace, ledger.dataSource.sId, 'salaries', { title: 'Salaries', text: 'Secret.' });
  });
  afterAll(async () => {
    await t?.close();
    await openai.stop();
  });

  it("attaches a document the caller reads through a view, as Dust's content node, and shows it to the model", async () => {
    let conversation: ConversationPublicType | undefined;
    const turns = await userTurnsOf(async () => {
      const created = ok(
        await client(member).createConversation({
          title: null,
          visibility: 'unlisted',
          message: { content: 'What is the refund policy?', mentions: [{ configurationId: agent }], context },
          contentFragments: [
            { title: 'Refund policy', nodeId: 'refund-policy', nodeDataSourceViewId: handbookView },
          ],
          blocking: false,
          skipToolsValidation: false,
        }),
      );
      conversation = created.conversation;
      return created.conversation.sId;
    });
    expect(turns).toEqual([
      '<attachment title="Refund policy" contentType="text/markdown">\nRefunds are paid within 30 days.\n</attachment>',
      'What is the refund policy?',
    ]);
    const [fragment] = conversation!.content.flat().filter((m) => m.type === 'content_fragment');
    expect(fragment).toMatchObject({
      contentFragmentType: 'content_node',
      title: 'Refund policy',
      contentType: 'text/markdown',
      sourceUrl: 'https://intranet.example.com/refunds',
      nodeId: 'refund-policy',
      nodeDataSourceViewId: handbookView,
      nodeType: 'document',
      expiredReason: null,
      contentNodeData: {
        nodeId: 'refund-policy',
        nodeDataSourceViewId: handbookView,
        nodeType: 'document',
        provider: null,
        spaceName: 'Company Data',
      },
    });

    // Added later with a title of its own, the document keeps its title in the text the model reads.
    const added = ok(
      await client(member).postContentFragment({
        conversationId: conversation!.sId,
        contentFragment: { title: 'Policy', nodeId: 'refund-policy', nodeDataSourceViewId: handbookView },
      }),
    );
    expect(added).toMatchObject({ contentFragmentType: 'content_node', nodeId: 'refund-policy' });
    const text = await api(t, member)
      .get(`${paths.conversation(wId, conversation!.sId)}/content_fragments/${added.sId}/text`)
      .expect(200);
    expect(text.text).toBe('Refund policy\n\nRefunds are paid within 30 days.');
  });

  it('gives the model a long document within the fragment budget, saying where it was cut', async () => {
    const turns = await userTurnsOf(async () => {
      const created = ok(
        await client(member).createConversation({
          title: null,
          visibility: 'unlisted',
          message: { content: 'Summarise', mentions: [{ configurationId: agent }], context },
          contentFragments: [
            { title: 'Long manual', nodeId: 'long-manual', nodeDataSourceViewId: handbookView },
          ],
          blocking: false,
          skipToolsValidation: false,
        }),
      );
      return created.conversation.sId;
    });
    const attachment = turns[0] as string;
    expect(attachment).toContain(`é`.repeat(BUDGET_BYTES / 2));
    expect(attachment).not.toContain(`é`.repeat(BUDGET_BYTES / 2 + 1));
    expect(attachment).toContain(`[Content cut: ${BUDGET_BYTES} of 6000 bytes shown`);
  });

  it('attaches a document a view shows under its parents, and no document it does not show', async () => {
    const { sId: cId } = await world.conversation(member, {});
    const fragments = `${paths.conversation(wId, cId)}/content_fragments`;
    const shown = await api(t, member)
      .post(fragments)
      .send({ title: 'Q3', nodeId: 'q3-report', nodeDataSourceViewId: reportsView })
      .expect(200);
    expect(shown.body.contentFragment).toMatchObject({
      nodeId: 'q3-report',
      nodeDataSourceViewId: reportsView,
      contentNodeData: { spaceName: 'Company Data' },
    });
    expect(shown.body).toMatchApiSchema('ContentFragmentResponse');
  });

  it('refuses a document the caller cannot read, or of another workspace, with a 404 saying which, writing nothing', async () => {
    const { sId: cId } = await world.conversation(member, {});
    const fragments = `${paths.conversation(wId, cId)}/content_fragments`;
    const before = {
      fragments: await count('content_fragments'),
      conversations: await count('conversations'),
    };
    const refused = async (
      actor: KeyHolder,
      path: string,
      body: Record<string, unknown>,
      type: string,
      message: RegExp,
    ) => {
      const res = await api(t, actor).post(path).send(body);
      expectError(res, 404, type);
      expect(res.body.error.message).toMatch(message);
    };
    // The ledger's own view is in a space the member is not in.
    await refused(
      member,
      fragments,
      { title: 'Salaries', nodeId: 'salaries', nodeDataSourceViewId: ledgerView },
      'data_source_view_not_found',
      new RegExp(`nodeDataSourceViewId: data source view ${ledgerView} not found`),
    );
    // The reports view does not show the salaries, nor a document that does not exist.
    for (const nodeId of ['salaries', 'no-such-document']) {
      await refused(
        member,
        fragments,
        { title: 'x', nodeId, nodeDataSourceViewId: reportsView },
        'data_source_document_not_found',
        new RegExp(`nodeId: document "${nodeId}" not found in data source view ${reportsView}`),
      );
    }
    // Another workspace's member cannot name this workspace's view, even in their own conversation.
    const { sId: theirs } = await world.conversation(b.admin, {});
    await refused(
      b.admin,
      `${paths.conversation(b.workspace.sId, theirs)}/content_fragments`,
      { title: 'Refunds', nodeId: 'refund-policy', nodeDataSourceViewId: handbookView },
      'data_source_view_not_found',
      /not found in the spaces you can access/,
    );
    // A creation naming one is refused whole: no conversation, no fragment.
    const creation = await client(member).createConversation({
      title: null,
      visibility: 'unlisted',
      message: { content: 'Read it', mentions: [], context },
      contentFragments: [{ title: 'Salaries', nodeId: 'salaries', nodeDataSourceViewId: ledgerView }],
      blocking: false,
      skipToolsValidation: false,
    });
    expect(creation.isErr() && creation.error).toMatchObject({ type: 'data_source_view_not_found' });
    expect({
      fragments: await count('content_fragments'),
      conversations: await count('conversations'),
    }).toEqual({
      fragments: before.fragments,
      conversations: before.conversations + 1,
    });
  });

  it('refuses a node fragment missing its view, or with a file, text or url besides, with a 400', async () => {
    const { sId: cId } = await world.conversation(member, {});
    const fragments = `${paths.conversation(wId, cId)}/content_fragments`;
    const before = await count('content_fragments');
    const node = { title: 'x', nodeId: 'refund-policy', nodeDataSourceViewId: handbookView };
    for (const [body, message] of [
      [{ title: 'x', nodeId: 'refund-policy' }, /nodeDataSourceViewId: give both/],
      [{ title: 'x', nodeDataSourceViewId: handbookView }, /nodeId, nodeDataSourceViewId: give both/],
      [{ ...node, fileId: 'fil_123' }, /comes with nodeDataSourceViewId only/],
      [{ ...node, content: 'x', contentType: 'text/plain' }, /comes with nodeDataSourceViewId only/],
      [{ ...node, url: 'https://example.com' }, /comes with nodeDataSourceViewId only/],
      [{ ...node, nodeDataSourceViewId: 'not a view!' }, /nodeDataSourceViewId/],
      [{ ...node, nodeId: 'x'.repeat(513) }, /nodeId/],
      [{ ...node, nodeId: '' }, /nodeId/],
    ] as const) {
      const res = await api(t, member).post(fragments).send(body);
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toMatch(message);
    }
    expect(await count('content_fragments')).toBe(before);
  });
});

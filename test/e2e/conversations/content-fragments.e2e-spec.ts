import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { FilesService } from 'src/modules/files/application/files.service';
import { docxOf, pdfOf, pngOf } from 'test/support/documents';
import { expect, expectError } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { Actor, KeyHolder, World, WorkspaceFixture, api, eventsOf } from 'test/support/world';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const context = { username: 'ada', timezone: 'Europe/Paris' };

describe('content fragments', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  const openai = new FakeOpenAi();
  let openaiUrl = '';

  const fragmentsPath = (actor: KeyHolder, cId: string) =>
    `${paths.conversation(actor.workspace.sId, cId)}/content_fragments`;
  const fragmentCount = async () =>
    Number((await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM content_fragments'))[0].n);

  /** A file uploaded through endpoints 5 (create) and 6 (upload); answers its sId. */
  async function upload(
    actor: KeyHolder,
    content: Buffer,
    contentType: string,
    extra: Record<string, unknown> = {},
    on: { app: TestApp; world: World } = { app: t, world },
  ): Promise<string> {
    const file = await on.world.file<{ sId: string; path: string }>(actor, {
      contentType,
      fileName: 'upload',
      fileSize: content.length,
      ...extra,
    });
    await api(on.app, actor)
      .post(file.path)
      .attach('file', content, { filename: 'upload', contentType })
      .expect(200);
    return file.sId;
  }

  /** The user turns of the model request the fake received while `act` ran and its answers ended. */
  async function userTurnsOf(
    act: () => Promise<unknown>,
    settled: () => Promise<unknown>,
  ): Promise<{ role: string; content: unknown }[]> {
    const before = openai.requests.length;
    await act();
    await settled();
    expect(openai.requests.length).toBeGreaterThan(before);
    const messages = openai.requests[before].body.messages as { role: string; content: unknown }[];
    return messages.filter((m) => m.role === 'user');
  }

  /** The conversation once `count` agent messages succeeded. */
  const answered = (on: { app: TestApp; world: World }, actor: KeyHolder, cId: string, count: number) =>
    until(
      () => on.world.messages(actor, cId),
      (list) => list.filter((m) => m.type === 'agent_message' && m.status === 'succeeded').length >= count,
    );

  const imagePart = (png: Buffer) => ({
    type: 'image_url',
    image_url: { url: `data:image/png;base64,${png.toString('base64')}` },
  });
  const imageIntro = (title: string) => ({
    type: 'text',
    text: `<attachment title="${title}" contentType="image/png">\n(The image follows.)\n</attachment>`,
  });

  beforeAll(async () => {
    openaiUrl = await openai.start();
    t = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        OPENAI_TEXT_ONLY_MODELS: 'gpt-text-only',
      },
    });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    member = await world.member(a.workspace, 'user');
  });
  afterAll(async () => {
    await t.close();
    await openai.stop();
  });

  it('puts a file and inline text in a conversation, in order in the message list, announced on the stream', async () => {
    const { sId: cId } = await world.conversation(a.admin, { message: 'Hello' });
    const fileId = await upload(a.admin, pdfOf(['Board minutes', 'Budget approved']), 'application/pdf');
    const res = await api(t, a.admin)
      .post(fragmentsPath(a.admin, cId))
      .send({ title: 'minutes.pdf', fileId })
      .expect(200);
    expect(res.body).toMatchApiSchema('ContentFragmentResponse');
    expect(res.body.contentFragment).toEqual({
      type: 'content_fragment',
      sId: expect.any(String),
      id: expect.any(Number),
      rank: 1,
      version: 0,
      created: expect.any(Number),
      title: 'minutes.pdf',
      contentType: 'application/pdf',
      fileId,
      textBytes: Buffer.byteLength('Board minutes\nBudget approved'),
      visibility: 'visible',
      contentFragmentId: res.body.contentFragment.sId,
      contentFragmentVersion: 'latest',
      textUrl: `${fragmentsPath(a.admin, cId)}/${res.body.contentFragment.sId}/text`,
      sourceUrl: null,
      context: { username: null, fullName: null, email: null, profilePictureUrl: null },
      contentNodeData: null,
      contentFragmentType: 'file',
      expiredReason: null,
      snippet: null,
      generatedTables: [],
      sourceProvider: null,
      sourceIcon: null,
    });
    const inline = await api(t, a.admin)
      .post(fragmentsPath(a.admin, cId))
      .send({ title: 'note', content: 'Zoë says hi', contentType: 'text/plain' })
      .expect(200);
    expect(inline.body.contentFragment).toMatchObject({ rank: 2, fileId: null, textBytes: 12 });

    const list = await world.messages(a.admin, cId);
    expect(list.map((m) => [m.type, m.rank])).toEqual([
      ['user_message', 0],
      ['content_fragment', 1],
      ['content_fragment', 2],
    ]);
    const events = await eventsOf(t, a.admin, cId);
    const announced = events
      .filter((e) => e.type === 'user_message_new')
      .map((e) => e.payload.message as { type: string });
    expect(announced.map((m) => m.type)).toEqual(['user_message', 'content_fragment', 'content_fragment']);
  });

  it("serves a fragment's text at its textUrl to the conversation's readers only", async () => {
    const { sId: cId } = await world.conversation(a.admin, { title: 'Texts' });
    const fileId = await upload(a.admin, docxOf(['Quarterly plan', 'Hire two']), DOCX);
    const fromFile = (
      await api(t, a.admin).post(fragmentsPath(a.admin, cId)).send({ title: 'plan.docx', fileId }).expect(200)
    ).body.contentFragment as { sId: string; textUrl: string };
    const inline = (
      await api(t, a.admin)
        .post(fragmentsPath(a.admin, cId))
        .send({ title: 'note', content: 'Zoë says hi', contentType: 'text/markdown' })
        .expect(200)
    ).body.contentFragment as { sId: string; textUrl: string };

    const listed = (await world.messages(a.admin, cId)).filter((m) => m.type === 'content_fragment');
    expect(listed.map((m) => (m as unknown as { textUrl: string }).textUrl)).toEqual([
      fromFile.textUrl,
      inline.textUrl,
    ]);
    const read = await api(t, a.admin).get(inline.textUrl).expect(200);
    expect(read.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(read.text).toBe('Zoë says hi');
    expect((await api(t, a.admin).get(fromFile.textUrl).expect(200)).text).toBe('Quarterly plan\n\nHire two');

    expectError(
      await api(t, a.admin).get(`${fragmentsPath(a.admin, cId)}/NoSuchFrag/text`),
      404,
      'message_not_found',
    );
    const { sId: otherCId } = await world.conversation(a.admin, { title: 'Other' });
    expectError(
      await api(t, a.admin).get(`${fragmentsPath(a.admin, otherCId)}/${inline.sId}/text`),
      404,
      'message_not_found',
    );
    // Another workspace: its own path is 404, and its key does not open this one.
    expectError(
      await api(t, b.admin).get(`${fragmentsPath(b.admin, cId)}/${inline.sId}/text`),
      404,
      'conversation_not_found',
    );
    expectError(await api(t, b.admin).get(inline.textUrl), 401, 'workspace_auth_error');
    const noRead = await world.member(a.workspace, 'admin', ['write:conversation']);
    expectError(await api(t, noRead).get(inline.textUrl), 403, 'insufficient_key_scope');
  });

  it('takes fragments with a new conversation and with a posted message, before the message', async () => {
    const created = await api(t, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .send({
        contentFragments: [{ title: 'a', content: 'first', contentType: 'text/markdown' }],
        message: { content: 'See above', mentions: [], context },
      })
      .expect(200);
    expect(created.body).toMatchApiSchema('CreatedConversationResponse');
    expect(created.body.contentFragments).toHaveLength(1);
    const cId = created.body.conversation.sId as string;
    await api(t, a.admin)
      .post(paths.messages(a.workspace.sId, cId))
      .send({
        content: 'And this',
        mentions: [],
        context,
        contentFragments: [
          { title: 'b', content: 'second', contentType: 'text/plain' },
          { title: 'c', content: '{"n":1}', contentType: 'application/json' },
        ],
      })
      .expect(200);
    const list = await world.messages(a.admin, cId);
    expect(list.map((m) => `${m.type}:${m.rank}`)).toEqual([
      'content_fragment:0',
      'user_message:1',
      'content_fragment:2',
      'content_fragment:3',
      'user_message:4',
    ]);
  });

  it('refuses bad input with 400 and another workspace’s file with 404, writing nothing', async () => {
    const { sId: cId } = await world.conversation(a.admin, {});
    const path = fragmentsPath(a.admin, cId);
    const before = await fragmentCount();
    const otherFile = await upload(b.admin, Buffer.from('secret'), 'text/plain');
    expectError(
      await api(t, a.admin).post(path).send({ title: 'x', fileId: otherFile }),
      404,
      'file_not_found',
    );
    const notReady = await world.file(a.admin, {});
    expectError(
      await api(t, a.admin).post(path).send({ title: 'x', fileId: notReady.sId }),
      400,
      'invalid_request_error',
    );
    const avatar = await upload(
      a.admin,
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
      'image/png',
      { useCase: 'avatar' },
    );
    expectError(
      await api(t, a.admin).post(path).send({ title: 'x', fileId: avatar }),
      400,
      'invalid_request_error',
    );
    for (const body of [
      { title: 'x' },
      { title: 'x', content: 'y' },
      { title: 'x', fileId: 'fil_1', content: 'y', contentType: 'text/plain' },
      { title: 'x', content: 'y', contentType: 'text/plain', extra: 1 },
      { title: 'x', content: 'y'.repeat(600 * 1024), contentType: 'text/plain' },
      { title: 'x', content: 'é'.repeat(300 * 1024), contentType: 'text/plain' },
      { title: '', content: 'y', contentType: 'text/plain' },
    ]) {
      expectError(await api(t, a.admin).post(path).send(body), 400, 'invalid_request_error');
    }
    const tooMany = Array.from({ length: 17 }, () => ({
      title: 'x',
      content: 'y',
      contentType: 'text/plain',
    }));
    expectError(
      await api(t, a.admin)
        .post(paths.messages(a.workspace.sId, cId))
        .send({ content: 'hi', mentions: [], context, contentFragments: tooMany }),
      400,
      'invalid_request_error',
    );
    // A good fragment followed by a refused file: the whole post is refused, nothing is written.
    expectError(
      await api(t, a.admin)
        .post(paths.messages(a.workspace.sId, cId))
        .send({
          content: 'hi',
          mentions: [],
          context,
          contentFragments: [
            { title: 'ok', content: 'y', contentType: 'text/plain' },
            { title: 'bad', fileId: otherFile },
          ],
        }),
      404,
      'file_not_found',
    );
    expectError(
      await api(t, b.admin)
        .post(fragmentsPath(b.admin, cId))
        .send({ title: 'x', content: 'y', contentType: 'text/plain' }),
      404,
      'conversation_not_found',
    );
    expect(await fragmentCount()).toBe(before);
    expect(await world.messages(a.admin, cId)).toEqual([]);
  });

  it('gives the model the text of a PDF and a DOCX uploaded and attached, in order, within the budget', async () => {
    const agent = await world.agent(a.admin, {
      instructions: 'Read the files.',
      model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
    });
    const pdf = await upload(a.admin, pdfOf(['Revenue grew 12% in Q3']), 'application/pdf');
    const docx = await upload(a.admin, docxOf(['Ship the beta on Friday']), DOCX);
    const chart = pngOf(3, 2);
    const png = await upload(a.admin, chart, 'image/png');
    openai.script({ kind: 'stream', chunks: ['Noted.'] });
    const before = openai.requests.length;
    const res = await api(t, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .send({
        contentFragments: [
          { title: 'q3.pdf', fileId: pdf },
          { title: 'plan.docx', fileId: docx },
          { title: 'chart.png', fileId: png },
        ],
        message: { content: 'Summarise', mentions: [{ configurationId: agent.sId }], context },
      })
      .expect(200);
    await world.settled(a.admin, res.body.conversation.sId as string);
    const messages = openai.requests[before].body.messages as { role: string; content: unknown }[];
    const user = messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(user).toEqual([
      '<attachment title="q3.pdf" contentType="application/pdf">\nRevenue grew 12% in Q3\n</attachment>',
      `<attachment title="plan.docx" contentType="${DOCX}">\nShip the beta on Friday\n</attachment>`,
      [imageIntro('chart.png'), imagePart(chart)],
      'Summarise',
    ]);
  });

  it('shows an attached image to a model that reads images, and describes it to a text-only model', async () => {
    const square = pngOf(2, 2);
    const fileId = await upload(a.admin, square, 'image/png');
    const { sId: cId } = await world.conversation(a.admin, {});
    await api(t, a.admin)
      .post(fragmentsPath(a.admin, cId))
      .send({ title: 'diagram.png', fileId })
      .expect(200);
    const model = (modelId: string) => ({ providerId: 'openai', modelId, temperature: 0 });
    const vision = await world.agent(a.admin, { instructions: 'Look.', model: model('gpt-test') });
    const textOnly = await world.agent(a.admin, { instructions: 'Read.', model: model('gpt-text-only') });

    openai.script({ kind: 'stream', chunks: ['A red square.'] });
    const seen = await userTurnsOf(
      () => world.message(a.admin, cId, 'What is in it?', { mentions: [vision.sId] }),
      () => answered({ app: t, world }, a.admin, cId, 1),
    );
    expect(seen).toEqual([
      { role: 'user', content: [imageIntro('diagram.png'), imagePart(square)] },
      { role: 'user', content: 'What is in it?' },
    ]);

    openai.script({ kind: 'stream', chunks: ['A file named diagram.png.'] });
    const described = await userTurnsOf(
      () => world.message(a.admin, cId, 'And you?', { mentions: [textOnly.sId] }),
      () => answered({ app: t, world }, a.admin, cId, 2),
    );
    expect(described[0]).toEqual({
      role: 'user',
      content:
        '<attachment title="diagram.png" contentType="image/png">\n(A image/png file, shown by its title only.)\n</attachment>',
    });
    expect(JSON.stringify(described)).not.toContain('image_url');
  });

  it('shows images newest first within CONTENT_FRAGMENT_IMAGE_BYTES, describing the rest and saying why', async () => {
    const small = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        CONTENT_FRAGMENT_IMAGE_BYTES: 6_000,
      },
    });
    try {
      const on = { app: small, world: new World(small) };
      const w = await on.world.workspace();
      // Varied pixels do not compress: about 4.9 KB each, so only one of the two fits.
      let seed = 7;
      const noise = (): [number, number, number] => {
        seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
        return [seed & 255, (seed >> 8) & 255, (seed >> 16) & 255];
      };
      const tiny = pngOf(1, 1);
      const older = pngOf(40, 40, noise);
      const newer = pngOf(40, 40, noise);
      expect(older.length).toBeGreaterThan(3_000);
      expect(newer.length + tiny.length).toBeLessThan(6_000);
      const ids: string[] = [];
      for (const png of [tiny, older, newer]) ids.push(await upload(w.admin, png, 'image/png', {}, on));
      const agent = await on.world.agent(w.admin, {
        instructions: 'Look.',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      });
      openai.script({ kind: 'stream', chunks: ['Three images.'] });
      let cId = '';
      const seen = await userTurnsOf(
        async () => {
          const res = await api(small, w.admin)
            .post(paths.conversations(w.workspace.sId))
            .send({
              contentFragments: ids.map((fileId, i) => ({ title: `img-${i}.png`, fileId })),
              message: { content: 'Compare', mentions: [{ configurationId: agent.sId }], context },
            })
            .expect(200);
          cId = res.body.conversation.sId as string;
        },
        () => answered(on, w.admin, cId, 1),
      );
      expect(seen.map((m) => m.content)).toEqual([
        [imageIntro('img-0.png'), imagePart(tiny)],
        `<attachment title="img-1.png" contentType="image/png">\n(A image/png file, shown by its title only: its ${older.length} bytes pass what is left of the 6000 bytes of images a request may show the model (CONTENT_FRAGMENT_IMAGE_BYTES).)\n</attachment>`,
        [imageIntro('img-2.png'), imagePart(newer)],
        'Compare',
      ]);
    } finally {
      await small.close();
    }
  });

  it('answers 404 naming the mistake when a content fragment’s sId is given where a message’s is expected', async () => {
    const { sId: cId } = await world.conversation(a.admin, { message: 'Hello' });
    const added = await api(t, a.admin)
      .post(fragmentsPath(a.admin, cId))
      .send({ title: 'note', content: 'A snippet', contentType: 'text/plain' })
      .expect(200);
    const fragment = added.body.contentFragment.sId as string;
    const conversation = paths.conversation(a.workspace.sId, cId);
    const message = `${conversation}/messages/${fragment}`;
    const feedback = `/api/v1/w/${a.workspace.sId}/assistant/conversations/${cId}/messages/${fragment}/feedbacks`;
    const attempts = [
      api(t, a.admin).post(`${message}/reactions`).send({ emoji: '👍' }),
      api(t, a.admin).delete(`${message}/reactions`).send({ emoji: '👍' }),
      api(t, a.admin).post(`${message}/edit`).send({ content: 'Edited', mentions: [] }),
      api(t, a.admin).post(`${message}/cancel`).send({}),
      api(t, a.admin).post(`${message}/validate-action`).send({ actionId: 'act_1', approved: 'approved' }),
      api(t, a.admin).get(`${message}/events`),
      api(t, a.admin).post(`${conversation}/fork`).send({ sourceMessageId: fragment }),
      api(t, a.admin).post(feedback).send({ thumbDirection: 'up' }),
    ];
    for (const res of await Promise.all(attempts)) {
      expectError(res, 404, 'message_not_found');
      expect(res.body.error.message).toContain(
        `${fragment} is a content fragment of this conversation, not a message`,
      );
    }
    // An id that names nothing keeps the plain answer.
    const unknown = await api(t, a.admin)
      .post(`${conversation}/messages/zzzzzzzzzz/reactions`)
      .send({ emoji: '👍' });
    expectError(unknown, 404, 'message_not_found');
    expect(unknown.body.error.message).not.toContain('content fragment');
    // The fragment is untouched, and another workspace learns nothing about it.
    expect((await world.messages(a.admin, cId)).map((m) => m.type)).toEqual([
      'user_message',
      'content_fragment',
    ]);
    expectError(
      await api(t, b.admin)
        .post(`${paths.conversation(b.workspace.sId, cId)}/messages/${fragment}/reactions`)
        .send({ emoji: '👍' }),
      404,
      'conversation_not_found',
    );
  });

  it('binds an attached file to its conversation: a member who cannot read the conversation cannot read the file', async () => {
    const { sId: spaceId } = await world.space(a.admin, { members: [a.admin] });
    const { sId: cId } = await world.conversation(a.admin, { spaceId });
    const fileId = await upload(a.admin, Buffer.from('board only'), 'text/plain');
    await api(t, member).get(`/api/w/${a.workspace.sId}/files/${fileId}`).expect(200);
    await api(t, a.admin).post(fragmentsPath(a.admin, cId)).send({ title: 'b', fileId }).expect(200);
    expectError(await api(t, member).get(`/api/w/${a.workspace.sId}/files/${fileId}`), 404, 'file_not_found');
    await api(t, a.admin).get(`/api/w/${a.workspace.sId}/files/${fileId}`).expect(200);
    // Attached to one conversation, it cannot be attached to another.
    const other = await world.conversation(a.admin, {});
    expectError(
      await api(t, a.admin).post(fragmentsPath(a.admin, other.sId)).send({ title: 'b', fileId }),
      404,
      'file_not_found',
    );
  });

  it('gives other contexts the extracted text of a ready file the caller can see, and nothing else', async () => {
    const files = t.app.get(FilesService);
    const caller = await world.caller(a.workspace, a.admin.user);
    const fileId = await upload(a.admin, docxOf(['Clause 4: renewal']), DOCX, {
      useCase: 'upsert_document',
    });
    const { file, text } = await files.extractedText(caller, fileId);
    expect({ text, contentType: file.contentType, textBytes: file.textBytes }).toEqual({
      text: 'Clause 4: renewal',
      contentType: DOCX,
      textBytes: 17,
    });
    const created = await world.file(a.admin, {});
    await expect(files.extractedText(caller, created.sId)).rejects.toMatchObject({
      code: 'invalid_request_error',
    });
    const foreign = await upload(b.admin, Buffer.from('theirs'), 'text/plain');
    await expect(files.extractedText(caller, foreign)).rejects.toMatchObject({ code: 'file_not_found' });
  });

  it('cuts what passes the budget, saying so in the text the model reads', async () => {
    const small = await createTestApp({
      env: {
        OPENAI_BASE_URL: openaiUrl,
        OPENAI_API_KEY: 'sk-test',
        OPENAI_TIMEOUT_MS: 5_000,
        OPENAI_MAX_RETRIES: 0,
        CONTENT_FRAGMENT_BUDGET_BYTES: 1_024,
      },
    });
    try {
      const smallWorld = new World(small);
      const w = await smallWorld.workspace();
      const agent = await smallWorld.agent(w.admin, {
        instructions: 'Read.',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      });
      openai.script({ kind: 'stream', chunks: ['Ok.'] });
      const before = openai.requests.length;
      const res = await api(small, w.admin)
        .post(paths.conversations(w.workspace.sId))
        .send({
          contentFragments: [
            { title: 'big', content: 'x'.repeat(1_000), contentType: 'text/plain' },
            { title: 'more', content: 'y'.repeat(100), contentType: 'text/plain' },
          ],
          message: { content: 'Go', mentions: [{ configurationId: agent.sId }], context },
        })
        .expect(200);
      await smallWorld.settled(w.admin, res.body.conversation.sId as string);
      const user = (openai.requests[before].body.messages as { role: string; content: string }[])
        .filter((m) => m.role === 'user')
        .map((m) => m.content);
      expect(user[0]).toContain('x'.repeat(1_000));
      expect(user[1]).toContain(`${'y'.repeat(24)}\n[Content cut: 24 of 100 bytes shown`);
    } finally {
      await small.close();
    }
  });

  it('copies fragments into a fork, whose file copy goes from pending to completed', async () => {
    const { sId: cId } = await world.conversation(a.admin, { message: 'one' });
    await api(t, a.admin)
      .post(fragmentsPath(a.admin, cId))
      .send({ title: 'n', content: 'kept', contentType: 'text/plain' })
      .expect(200);
    const last = await world.message(a.admin, cId, 'two');
    const fork = await api(t, a.admin)
      .post(`${paths.conversation(a.workspace.sId, cId)}/fork`)
      .send({ sourceMessageId: last.sId })
      .expect(200);
    const forkId = fork.body.conversation.sId as string;
    expect(fork.body.conversation.forkingData.forkedFrom.fileCopyStatus).toBe('pending');
    const list = await world.messages(a.admin, forkId);
    expect(list.map((m) => m.type)).toEqual(['user_message', 'content_fragment', 'user_message']);
    expect(list[1]).toMatchObject({ title: 'n', textBytes: 4, fileId: null });
    // The copy completes after the fork's answer: read until it says so.
    const later = await until(
      () => api(t, a.admin).get(paths.conversation(a.workspace.sId, forkId)).expect(200),
      (res) => res.body.conversation.forkingData.forkedFrom.fileCopyStatus !== 'pending',
    );
    expect(later.body.conversation.forkingData.forkedFrom.fileCopyStatus).toBe('completed');
  });
});

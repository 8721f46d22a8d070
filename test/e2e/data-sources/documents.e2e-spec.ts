import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { documentBodyLimit } from 'src/modules/data-sources/http/dto/documents.dto';
import { FilesConfig } from 'src/modules/files/files.config';
import { JSON_BODY_LIMIT_BYTES } from 'src/platform/http/json-body-parser';
import { expect, expectError } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

const LIMITS = {
  DOCUMENT_MAX_TEXT_BYTES: 20_000,
  DOCUMENTS_PER_DATA_SOURCE_MAX: 5,
  DOCUMENT_MAX_TAGS: 3,
  DOCUMENT_MAX_PARENTS: 3,
};

interface SearchBody {
  documents: {
    document_id: string;
    title: string;
    score: number;
    chunks: { text: string; score: number }[];
  }[];
}

describe('documents of data sources and their search', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let outsider: Actor;
  let readOnly: Actor;
  let globalSpace: string;
  let financeSpace: string;
  let handbook: { sId: string; viewSId: string };
  let ledger: { sId: string; viewSId: string };
  /** The handbook shared into Finance, only its `policies` node. */
  let policiesView: string;

  const base = (spaceId: string, wId = a.workspace.sId) => `/api/v1/w/${wId}/spaces/${spaceId}`;
  const docs = (spaceId: string, dsId: string, suffix = '') =>
    `${base(spaceId)}/data_sources/${dsId}/documents${suffix}`;
  const search = (spaceId: string, dsvId: string) => `${base(spaceId)}/data_source_views/${dsvId}/search`;

  const createDataSource = async (spaceId: string, body: Record<string, unknown>) => {
    const res = await api(t, a.admin)
      .post(`/api/w/${a.workspace.sId}/spaces/${spaceId}/data_sources`)
      .send(body)
      .expect(200);
    return { sId: res.body.dataSource.sId as string, viewSId: res.body.dataSourceView.sId as string };
  };

  const upsert = (
    actor: Actor,
    spaceId: string,
    dsId: string,
    documentId: string,
    body: Record<string, unknown>,
  ) =>
    api(t, actor)
      .post(docs(spaceId, dsId, `/${encodeURIComponent(documentId)}`))
      .send(body);

  const searchIds = async (actor: Actor, spaceId: string, dsvId: string, query: string) => {
    const res = await api(t, actor).get(search(spaceId, dsvId)).query({ query, top_k: 64 }).expect(200);
    expect(res.body).toMatchApiSchema('SearchResponse');
    return (res.body as SearchBody).documents.map((document) => document.document_id);
  };

  beforeAll(async () => {
    t = await createTestApp({ env: LIMITS });
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    member = await world.member(a.workspace, 'user');
    outsider = await world.member(a.workspace, 'user');
    readOnly = await world.key(member, ['read:data_source']);
    globalSpace = await world.globalSpace(a.admin);
    financeSpace = (await world.space(a.admin, { name: 'Finance', members: [a.admin, member] })).sId;
    handbook = await createDataSource(globalSpace, { name: 'Handbook' });
    ledger = await createDataSource(financeSpace, { name: 'Ledger' });
    const shared = await api(t, a.admin)
      .post(`/api/w/${a.workspace.sId}/spaces/${financeSpace}/data_source_views`)
      .send({ dataSourceId: handbook.sId, parentsIn: ['policies'] })
      .expect(200);
    policiesView = shared.body.dataSourceView.sId;
    for (const [id, body] of [
      [
        'refunds',
        { title: 'Refund policy', text: 'Customers get a refund within 30 days.', parents: ['policies'] },
      ],
      ['holidays', { title: 'Holidays', text: 'Everyone takes 25 days of holidays.', parents: ['people'] }],
    ] as const) {
      await upsert(member, globalSpace, handbook.sId, id, body).expect(200);
    }
  });
  afterAll(() => t.close());

  describe('upserting and reading', () => {
    it('upserts a file of use case upsert_document by its id, with its extracted text', async () => {
      const upload = async (useCase: string, text: string, actor: Actor = member) => {
        const content = Buffer.from(text);
        const file = await world.file<{ sId: string; path: string }>(actor, {
          contentType: 'text/markdown',
          fileName: 'expenses.md',
          fileSize: content.length,
          useCase,
        });
        await api(t, actor)
          .post(file.path)
          .attach('file', content, { filename: 'expenses.md', contentType: 'text/markdown' })
          .expect(200);
        return file.sId;
      };
      const receipts = await createDataSource(globalSpace, { name: 'Receipts' });
      const fileId = await upload('upsert_document', '# Expenses\n\nReceipts are due within 14 days.');
      const res = await upsert(member, globalSpace, receipts.sId, 'expenses', {
        fileId,
        tags: ['finance'],
      }).expect(200);
      expect(res.body.document).toMatchObject({
        document_id: 'expenses',
        title: 'expenses.md',
        mime_type: 'text/markdown',
        text: '# Expenses\n\nReceipts are due within 14 days.',
        tags: ['finance'],
      });
      expect(await searchIds(member, globalSpace, receipts.viewSId, 'receipts')).toContain('expenses');

      const conversationFile = await upload('conversation', 'Not a document.');
      expectError(
        await upsert(member, globalSpace, receipts.sId, 'x', { fileId: conversationFile }),
        400,
        'invalid_request_error',
      );
      expectError(
        await upsert(member, globalSpace, receipts.sId, 'x', { fileId, text: 'both' }),
        400,
        'invalid_request_error',
      );
      const foreign = await upload('upsert_document', 'Another workspace.', b.admin);
      for (const other of [foreign, 'fil_unknownfile0000001']) {
        const refused = await upsert(member, globalSpace, receipts.sId, 'x', { fileId: other });
        expect(refused.status).toBe(404);
        expect(refused.body).toMatchApiSchema('ErrorResponse');
      }
      expect((await api(t, member).get(docs(globalSpace, receipts.sId, '/x'))).status).toBe(404);
    });

    it('creates a document and answers it with its data source, in the documented shape', async () => {
      const before = Date.now();
      const res = await upsert(member, globalSpace, handbook.sId, 'onboarding/week-1', {
        title: 'First week',
        text: 'Meet your buddy on Monday.',
        source_url: 'https://intranet.example.com/onboarding',
        tags: ['onboarding', 'people'],
        parents: ['onboarding'],
        mime_type: 'text/markdown',
        timestamp: 1763856000000,
      }).expect(200);
      expect(res.body).toMatchApiSchema('UpsertedDocumentResponse');
      expect(res.body.document).toEqual({
        data_source_id: handbook.sId,
        created: expect.any(Number),
        document_id: 'onboarding/week-1',
        timestamp: 1763856000000,
        title: 'First week',
        tags: ['onboarding', 'people'],
        parents: ['onboarding/week-1', 'onboarding'],
        source_url: 'https://intranet.example.com/onboarding',
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        text_size: 26,
        chunk_count: 1,
        mime_type: 'text/markdown',
        text: 'Meet your buddy on Monday.',
        chunks: [],
      });
      expect(res.body.document.created).toBeGreaterThanOrEqual(before - 1000);
      expect(res.body.data_source).toMatchObject({ sId: handbook.sId, name: 'Handbook' });

      const read = await api(t, readOnly)
        .get(docs(globalSpace, handbook.sId, `/${encodeURIComponent('onboarding/week-1')}`))
        .expect(200);
      expect(read.body).toMatchApiSchema('DocumentResponse');
      expect(read.body.document).toEqual(res.body.document);
    });

    it('replaces a document, its text and its index entries, and keeps one row', async () => {
      await upsert(member, globalSpace, handbook.sId, 'faq', { text: 'The office opens at eight.' }).expect(
        200,
      );
      expect(await searchIds(member, globalSpace, handbook.viewSId, 'office eight')).toEqual(['faq']);
      const res = await upsert(member, globalSpace, handbook.sId, 'faq', {
        text: 'The canteen serves lunch at noon.',
        light_document_output: true,
      }).expect(200);
      expect(res.body.document).toMatchObject({ document_id: 'faq', title: 'faq', text: null });
      expect(await searchIds(member, globalSpace, handbook.viewSId, 'office eight')).toEqual([]);
      expect(await searchIds(member, globalSpace, handbook.viewSId, 'canteen')).toEqual(['faq']);
      const [{ count }] = await t.dataSource.query<{ count: string }[]>(
        "SELECT count(*) FROM data_source_documents WHERE document_id = 'faq'",
      );
      expect(count).toBe('1');
    });

    it('reads a section tree as its text, headings first', async () => {
      const res = await upsert(member, globalSpace, handbook.sId, 'structured', {
        section: {
          prefix: '# Travel',
          content: 'Book trains.',
          sections: [{ prefix: '## Hotels', content: 'Up to 150 euros.', sections: [] }],
        },
      }).expect(200);
      expect(res.body.document.text).toBe('# Travel\nBook trains.\n## Hotels\nUp to 150 euros.');
    });

    it('splits long texts into overlapping chunks that search finds by their offset', async () => {
      const words = Array.from({ length: 600 }, (_, i) => `word${i}`);
      const text = words.join(' ');
      const res = await upsert(member, financeSpace, ledger.sId, 'long', { text }).expect(200);
      expect(res.body.document.chunk_count).toBe(3);
      const found = await api(t, member)
        .get(search(financeSpace, ledger.viewSId))
        .query({ query: 'word250', top_k: 5 })
        .expect(200);
      // word250 lies in the overlap of the first two chunks (0–255 and 224–479).
      const chunks = found.body.documents[0].chunks as { text: string; offset: number }[];
      expect(chunks.map((chunk) => chunk.offset).sort((x, y) => x - y)).toEqual([
        0,
        text.indexOf('word224 '),
      ]);
      for (const chunk of chunks)
        expect(text.slice(chunk.offset, chunk.offset + chunk.text.length)).toBe(chunk.text);
      await api(t, member)
        .delete(docs(financeSpace, ledger.sId, '/long'))
        .expect(200);
    });

    it('lists documents a page at a time, across page boundaries, without their text', async () => {
      const seen: string[] = [];
      let cursor: string | null = null as string | null;
      let pages = 0;
      do {
        const res = await api(t, readOnly)
          .get(docs(globalSpace, handbook.sId))
          .query(cursor === null ? { limit: 2 } : { limit: 2, cursor })
          .expect(200);
        expect(res.body).toMatchApiSchema('DocumentsResponse');
        for (const document of res.body.documents) expect(document).not.toHaveProperty('text');
        seen.push(...res.body.documents.map((document: { document_id: string }) => document.document_id));
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(seen).toEqual(['refunds', 'holidays', 'onboarding/week-1', 'faq', 'structured']);
      expect(pages).toBe(3);
      expectError(
        await api(t, member).get(docs(globalSpace, handbook.sId)).query({ cursor: 'nope' }),
        400,
        'invalid_request_error',
      );
    });

    it('deletes a document, its chunks with it', async () => {
      await upsert(member, financeSpace, ledger.sId, 'gone', { text: 'ephemeral words' }).expect(200);
      const res = await api(t, member)
        .delete(docs(financeSpace, ledger.sId, '/gone'))
        .expect(200);
      expect(res.body).toEqual({ document: { document_id: 'gone' } });
      expect(res.body).toMatchApiSchema('DeletedDocumentResponse');
      expect(await searchIds(member, financeSpace, ledger.viewSId, 'ephemeral')).toEqual([]);
      expectError(
        await api(t, member).get(docs(financeSpace, ledger.sId, '/gone')),
        404,
        'data_source_document_not_found',
      );
      expectError(
        await api(t, member).delete(docs(financeSpace, ledger.sId, '/gone')),
        404,
        'data_source_document_not_found',
      );
    });
  });

  describe('limits and validation', () => {
    it('refuses a body over each configured limit, naming it, and writes nothing', async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ text: 'x'.repeat(LIMITS.DOCUMENT_MAX_TEXT_BYTES + 1) }, /DOCUMENT_MAX_TEXT_BYTES/],
        [{ text: 'é'.repeat(LIMITS.DOCUMENT_MAX_TEXT_BYTES / 2 + 1) }, /DOCUMENT_MAX_TEXT_BYTES/],
        [{ text: 'x', tags: ['a', 'b', 'c', 'd'] }, /DOCUMENT_MAX_TAGS/],
        [{ text: 'x', parents: ['a', 'b', 'c', 'd'] }, /DOCUMENT_MAX_PARENTS/],
      ];
      for (const [body, limit] of cases) {
        const res = await upsert(member, financeSpace, ledger.sId, 'too-big', body);
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toMatch(limit);
      }
      const refused = await upsert(member, globalSpace, handbook.sId, 'sixth', { text: 'x' });
      expectError(refused, 400, 'invalid_request_error');
      expect(refused.body.error.message).toMatch(/DOCUMENTS_PER_DATA_SOURCE_MAX/);
      // Replacing an existing document is not a new one.
      await upsert(member, globalSpace, handbook.sId, 'faq', { text: 'Lunch at noon.' }).expect(200);
      const [{ count }] = await t.dataSource.query<{ count: string }[]>(
        "SELECT count(*) FROM data_source_documents WHERE document_id IN ('too-big', 'sixth')",
      );
      expect(count).toBe('0');
    });

    it('refuses wrong types, unknown keys, text and section together or neither, and bad fields', async () => {
      for (const body of [
        { text: 5 },
        { text: 'x', tags: 'policy' },
        { text: 'x', parents: [1] },
        { text: 'x', timestamp: 'yesterday' },
        { text: 'x', timestamp: -1 },
        { text: 'x', colour: 'blue' },
        { text: 'x', section: { prefix: null, content: 'y', sections: [] } },
        {},
        { section: { prefix: 'a', content: null } },
        { text: 'x', source_url: 'ftp://example.com/file' },
        { text: 'x', mime_type: 'not a type' },
        { text: 'x', tags: [''] },
      ]) {
        expectError(
          await upsert(member, financeSpace, ledger.sId, 'bad', body),
          400,
          'invalid_request_error',
        );
      }
      expectError(
        await upsert(member, financeSpace, ledger.sId, ' ', { text: 'x' }),
        400,
        'invalid_request_error',
      );
    });

    it('refuses an empty query and top_k outside 1 to 64', async () => {
      for (const query of [
        { query: '' },
        { query: '   ' },
        {},
        { query: 'x', top_k: 0 },
        { query: 'x', top_k: 65 },
        { query: 'x', top_k: 'ten' },
      ]) {
        expectError(
          await api(t, member).get(search(globalSpace, handbook.viewSId)).query(query),
          400,
          'invalid_request_error',
        );
      }
    });

    it('refuses a text-search configuration PostgreSQL does not have', async () => {
      const res = await api(t, a.admin)
        .post(`/api/w/${a.workspace.sId}/spaces/${globalSpace}/data_sources`)
        .send({ name: 'Klingon', textSearchConfig: 'klingon' });
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toMatch(/pg_ts_config/);
    });
  });

  describe('search', () => {
    it('ranks the best match first and groups chunks by document', async () => {
      await upsert(member, financeSpace, ledger.sId, 'q1', {
        title: 'Q1',
        text: 'Revenue grew. Costs fell.',
      }).expect(200);
      await upsert(member, financeSpace, ledger.sId, 'q2', {
        title: 'Q2',
        text: 'Revenue revenue revenue: record revenue this quarter.',
        source_url: 'https://intranet.example.com/q2',
        tags: ['quarterly'],
      }).expect(200);
      const res = await api(t, member)
        .get(search(financeSpace, ledger.viewSId))
        .query({ query: 'revenue', top_k: 10 })
        .expect(200);
      expect(res.body).toMatchApiSchema('SearchResponse');
      const found = (res.body as SearchBody).documents;
      expect(found.map((document) => document.document_id)).toEqual(['q2', 'q1']);
      expect(found[0]).toMatchObject({
        title: 'Q2',
        source_url: 'https://intranet.example.com/q2',
        tags: ['quarterly'],
      });
      expect(found[0].score).toBeGreaterThan(found[1].score);
      expect(found[0].score).toBe(found[0].chunks[0].score);
      // websearch syntax: a quoted phrase and an excluded word.
      expect(await searchIds(member, financeSpace, ledger.viewSId, '"costs fell"')).toEqual(['q1']);
      expect(await searchIds(member, financeSpace, ledger.viewSId, 'revenue -costs')).toEqual(['q2']);
    });

    it("uses the data source's configuration: english stems, simple does not", async () => {
      const english = await createDataSource(globalSpace, {
        name: 'English notes',
        textSearchConfig: 'english',
      });
      const simple = await createDataSource(globalSpace, { name: 'Simple notes' });
      for (const ds of [english, simple]) {
        await upsert(member, globalSpace, ds.sId, 'run', { text: 'The runners were running daily.' }).expect(
          200,
        );
      }
      expect(await searchIds(member, globalSpace, english.viewSId, 'run')).toEqual(['run']);
      expect(await searchIds(member, globalSpace, simple.viewSId, 'run')).toEqual([]);
      expect(await searchIds(member, globalSpace, simple.viewSId, 'running')).toEqual(['run']);
    });
  });

  describe('access', () => {
    it("restricts a view's search to its parentsIn", async () => {
      expect(await searchIds(member, financeSpace, policiesView, 'days')).toEqual(['refunds']);
      expect(await searchIds(member, globalSpace, handbook.viewSId, 'days')).toEqual(
        expect.arrayContaining(['refunds', 'holidays']),
      );
    });

    it('reads and writes documents only through the space that owns the data source', async () => {
      // Shared into Finance through a partial view: its documents are not reachable there whole.
      expectError(await api(t, member).get(docs(financeSpace, handbook.sId)), 404, 'data_source_not_found');
      expectError(
        await upsert(member, financeSpace, handbook.sId, 'x', { text: 'x' }),
        404,
        'data_source_not_found',
      );
    });

    it('hides a private space from non-members: every route answers 404', async () => {
      const cases = [
        api(t, outsider).get(docs(financeSpace, ledger.sId)),
        api(t, outsider).get(docs(financeSpace, ledger.sId, '/q1')),
        api(t, outsider).delete(docs(financeSpace, ledger.sId, '/q1')),
        upsert(outsider, financeSpace, ledger.sId, 'q1', { text: 'overwritten' }),
        api(t, outsider).get(search(financeSpace, ledger.viewSId)).query({ query: 'revenue' }),
      ];
      for (const res of await Promise.all(cases)) expectError(res, 404, 'space_not_found');
      const kept = await api(t, member)
        .get(docs(financeSpace, ledger.sId, '/q1'))
        .expect(200);
      expect(kept.body.document.text).toBe('Revenue grew. Costs fell.');
    });

    it("answers 404 for another workspace's space, data source or view", async () => {
      const foreignGlobal = await world.globalSpace(b.admin);
      expectError(await api(t, member).get(docs(foreignGlobal, handbook.sId)), 404, 'space_not_found');
      expectError(
        await api(t, member).get(docs(globalSpace, 'dts_Unknown0Id')),
        404,
        'data_source_not_found',
      );
      expectError(
        await api(t, member).get(search(globalSpace, 'dsv_Unknown0Id')).query({ query: 'x' }),
        404,
        'data_source_view_not_found',
      );
      // b's admin with b's key on a's paths is refused before any lookup.
      const res = await api(t, b.admin).get(docs(globalSpace, handbook.sId));
      expect(res.status).toBeGreaterThanOrEqual(401);
      expect(res.status).toBeLessThan(405);
    });

    it('needs write:data_source to write and read:data_source to read', async () => {
      expectError(
        await upsert(readOnly, globalSpace, handbook.sId, 'faq', { text: 'x' }),
        403,
        'insufficient_key_scope',
      );
      expectError(
        await api(t, readOnly).delete(docs(globalSpace, handbook.sId, '/faq')),
        403,
        'insufficient_key_scope',
      );
      const writeOnly = await world.key(member, ['write:data_source']);
      expectError(
        await api(t, writeOnly).get(docs(globalSpace, handbook.sId)),
        403,
        'insufficient_key_scope',
      );
    });
  });

  it('writes a document, its chunks and their index entries together or not at all', async () => {
    // A configuration dropped behind the service's back makes the chunks' insert fail mid-upsert.
    await upsert(member, financeSpace, ledger.sId, 'atomic', { text: 'original wording' }).expect(200);
    await t.dataSource.query("UPDATE data_sources SET text_search_config = 'gone_config' WHERE s_id = $1", [
      ledger.sId,
    ]);
    try {
      expect(
        (await upsert(member, financeSpace, ledger.sId, 'atomic', { text: 'replaced wording' })).status,
      ).toBe(500);
      expect(
        (await upsert(member, financeSpace, ledger.sId, 'fresh', { text: 'fresh wording' })).status,
      ).toBe(500);
    } finally {
      await t.dataSource.query("UPDATE data_sources SET text_search_config = 'simple' WHERE s_id = $1", [
        ledger.sId,
      ]);
    }
    const kept = await api(t, member)
      .get(docs(financeSpace, ledger.sId, '/atomic'))
      .expect(200);
    expect(kept.body.document.text).toBe('original wording');
    expect(await searchIds(member, financeSpace, ledger.viewSId, 'original')).toEqual(['atomic']);
    expect(await searchIds(member, financeSpace, ledger.viewSId, 'replaced')).toEqual([]);
    expectError(
      await api(t, member).get(docs(financeSpace, ledger.sId, '/fresh')),
      404,
      'data_source_document_not_found',
    );
  });

  describe('with the default 5 MB text limit and a small documents-per-data-source limit', () => {
    const MAX_TEXT = 5_000_000;
    const PER_SOURCE = 4;
    let big: TestApp;
    let w: WorkspaceFixture;
    let space: string;

    const bigDataSource = async (name: string) => {
      const res = await api(big, w.admin)
        .post(`/api/w/${w.workspace.sId}/spaces/${space}/data_sources`)
        .send({ name })
        .expect(200);
      return { dsId: res.body.dataSource.sId as string, viewId: res.body.dataSourceView.sId as string };
    };
    const documentsOf = (dsId: string, suffix = '') =>
      `/api/v1/w/${w.workspace.sId}/spaces/${space}/data_sources/${dsId}/documents${suffix}`;
    const put = (dsId: string, documentId: string, body: Record<string, unknown> | string) =>
      api(big, w.admin)
        .post(documentsOf(dsId, `/${documentId}`))
        .set('Content-Type', 'application/json')
        .send(typeof body === 'string' ? body : JSON.stringify(body));
    const listed = async (dsId: string) => {
      const res = await api(big, w.admin).get(documentsOf(dsId)).query({ limit: 100 }).expect(200);
      return (res.body.documents as { document_id: string }[]).map((d) => d.document_id).sort();
    };

    beforeAll(async () => {
      big = await createTestApp({
        env: {
          DOCUMENT_MAX_TEXT_BYTES: MAX_TEXT,
          DOCUMENTS_PER_DATA_SOURCE_MAX: PER_SOURCE,
          DOCUMENT_MAX_TAGS: 8,
          DOCUMENT_MAX_PARENTS: 8,
        },
      });
      expect(big.app.get(FilesConfig).documentMaxTextBytes).toBe(MAX_TEXT);
      w = await new World(big).workspace();
      space = await new World(big).globalSpace(w.admin);
    });
    afterAll(() => big.close());

    it('takes a 4.5 MB text past the 1 MiB every other route keeps, and refuses a body over its own limit with 413', async () => {
      const { dsId, viewId } = await bigDataSource('Large texts');
      const words = 'quarterly revenue grew across every region ';
      const text = `${words.repeat(Math.floor(4_500_000 / words.length))}zanzibar`;
      expect(Buffer.byteLength(text)).toBeGreaterThan(4_400_000);
      const res = await put(dsId, 'annual-report', {
        title: 'Annual report',
        text,
        light_document_output: true,
      });
      expect(res.status).toBe(200);
      expect(res.body.document).toMatchObject({ text_size: Buffer.byteLength(text), text: null });
      const read = await api(big, w.admin).get(documentsOf(dsId, '/annual-report')).expect(200);
      expect(read.body.document.text).toBe(text);
      const found = await api(big, w.admin)
        .get(`/api/v1/w/${w.workspace.sId}/spaces/${space}/data_source_views/${viewId}/search`)
        .query({ query: 'zanzibar' })
        .expect(200);
      expect(found.body.documents.map((d: { document_id: string }) => d.document_id)).toEqual([
        'annual-report',
      ]);

      // Escaped text takes more bytes than it holds: 3 MB of "é" sent as \u00e9 is a 9 MB body.
      const escaped = `{"text": "${'\\u00e9'.repeat(1_500_000)}"}`;
      expect(Buffer.byteLength(escaped)).toBeGreaterThan(9_000_000);
      expect((await put(dsId, 'escaped', escaped)).status).toBe(200);

      const limit = documentBodyLimit(MAX_TEXT);
      const tooLarge = await put(dsId, 'too-large', { text: 'x'.repeat(limit) });
      expectError(tooLarge, 413, 'payload_too_large');
      expect(tooLarge.body.error.message).toBe(`The JSON body exceeds the limit of ${limit} bytes.`);
      // Under the route's limit but over the document's: 400 naming the document limit.
      const overText = await put(dsId, 'over-text', { text: 'y'.repeat(MAX_TEXT + 1) });
      expectError(overText, 400, 'invalid_request_error');
      expect(overText.body.error.message).toMatch(/DOCUMENT_MAX_TEXT_BYTES/);
      expect(await listed(dsId)).toEqual(['annual-report', 'escaped']);

      const message = await api(big, w.admin)
        .post(paths.conversations(w.workspace.sId))
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ message: { content: 'z'.repeat(2_000_000), mentions: [], context: {} } }));
      expectError(message, 413, 'payload_too_large');
      expect(message.body.error.message).toBe(
        `The JSON body exceeds the limit of ${JSON_BODY_LIMIT_BYTES} bytes.`,
      );
    });

    it('never lets concurrent creations pass the documents-per-data-source limit; replacing still works at the limit', async () => {
      const { dsId } = await bigDataSource('Crowded');
      const racing = await Promise.all(
        Array.from({ length: 12 }, (_, i) => put(dsId, `racer-${i}`, { text: `Racer number ${i}.` })),
      );
      const statuses = racing.map((res) => res.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(PER_SOURCE);
      expect(statuses.filter((status) => status === 400)).toHaveLength(12 - PER_SOURCE);
      for (const res of racing.filter((r) => r.status === 400)) {
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toMatch(/DOCUMENTS_PER_DATA_SOURCE_MAX/);
      }
      const kept = await listed(dsId);
      expect(kept).toHaveLength(PER_SOURCE);

      // At the limit: replacements all pass, creations racing them all fail.
      const mixed = await Promise.all([
        ...kept.map((id) => put(dsId, id, { text: `Replaced ${id}.` })),
        ...[0, 1, 2, 3].map((i) => put(dsId, `late-${i}`, { text: 'Too late.' })),
      ]);
      expect(mixed.map((res) => res.status)).toEqual([200, 200, 200, 200, 400, 400, 400, 400]);
      expect(await listed(dsId)).toEqual(kept);
      const replaced = await api(big, w.admin)
        .get(documentsOf(dsId, `/${kept[0]}`))
        .expect(200);
      expect(replaced.body.document.text).toBe(`Replaced ${kept[0]}.`);

      // A deletion frees a place, exactly one.
      await api(big, w.admin)
        .delete(documentsOf(dsId, `/${kept[0]}`))
        .expect(200);
      const refill = await Promise.all([0, 1, 2].map((i) => put(dsId, `refill-${i}`, { text: 'Refill.' })));
      expect(refill.map((res) => res.status).sort()).toEqual([200, 400, 400]);
      expect(await listed(dsId)).toHaveLength(PER_SOURCE);
      const [{ counted }] = await big.dataSource.query<{ counted: number }[]>(
        `SELECT sum(c.count)::int AS counted FROM data_source_document_counts c
         JOIN data_sources ds ON ds.id = c.data_source_id WHERE ds.s_id = $1`,
        [dsId],
      );
      expect(counted).toBe(PER_SOURCE);
    });
  });
});

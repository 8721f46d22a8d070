import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { DustAPI } from '@dust-tt/client';
import { createHash } from 'node:crypto';
import { freePort } from 'src/platform/net/free-port';
import { expect } from 'test/support/expect';
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

interface ViewBody {
  sId: string;
  spaceId: string;
  parentsIn: string[] | null;
  kind: string;
  dataSource: { sId: string };
}

/** Data source views as Dust's client 1.2.8 finds and changes them, on the public family. */
describe("knowledge through Dust's client", () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let member: Actor;
  let wId: string;
  let base: string;
  let globalSpace: string;
  let financeSpace: string;
  let handbook: { dataSource: { sId: string }; dataSourceView: ViewBody };
  let ledger: { dataSource: { sId: string }; dataSourceView: ViewBody };
  let shared: ViewBody;

  const client = (actor: Actor) =>
    new DustAPI({ url: base }, { apiKey: actor.secret, workspaceId: actor.workspace.sId }, quiet);

  async function dataSource(spaceId: string, name: string) {
    const res = await api(t, a.admin)
      .post(`/api/w/${wId}/spaces/${spaceId}/data_sources`)
      .send({ name })
      .expect(200);
    return res.body as { dataSource: { sId: string }; dataSourceView: ViewBody };
  }

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp({ env: { PUBLIC_BASE_URL: base } });
    await t.app.listen(port, '127.0.0.1');
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    wId = a.workspace.sId;
    member = await world.member(a.workspace, 'user');
    globalSpace = await world.globalSpace(a.admin);
    financeSpace = (await world.space(a.admin, { name: 'Finance', members: [a.admin] })).sId;
    handbook = await dataSource(globalSpace, 'Handbook');
    ledger = await dataSource(financeSpace, 'Ledger');
    // The ledger shared into the global space, showing only its public reports.
    shared = (
      await api(t, a.admin)
        .post(`/api/w/${wId}/spaces/${globalSpace}/data_source_views`)
        .send({ dataSourceId: ledger.dataSource.sId, parentsIn: ['reports'] })
        .expect(200)
    ).body.dataSourceView as ViewBody;
    await api(t, b.admin)
      .post(`/api/w/${b.workspace.sId}/spaces/${await world.globalSpace(b.admin)}/data_sources`)
      .send({ name: 'Elsewhere' })
      .expect(200);
  });
  afterAll(() => t.close());

  it('searches the views of the spaces the caller can access, narrowed as asked', async () => {
    const all = ok(await client(member).searchDataSourceViews(new URLSearchParams({})));
    expect(all.map((view) => view.sId).sort()).toEqual([handbook.dataSourceView.sId, shared.sId].sort());

    const adminViews = ok(await client(a.admin).searchDataSourceViews(new URLSearchParams({})));
    expect(adminViews.map((view) => view.sId).sort()).toEqual(
      [handbook.dataSourceView.sId, shared.sId, ledger.dataSourceView.sId].sort(),
    );
    expect(
      ok(
        await client(a.admin).searchDataSourceViews(
          new URLSearchParams({ dataSourceId: ledger.dataSource.sId }),
        ),
      )
        .map((v) => v.sId)
        .sort(),
    ).toEqual([shared.sId, ledger.dataSourceView.sId].sort());
    expect(
      ok(await client(a.admin).searchDataSourceViews(new URLSearchParams({ kind: 'custom' }))).map(
        (v) => v.sId,
      ),
    ).toEqual([shared.sId]);
    expect(
      ok(await client(a.admin).searchDataSourceViews(new URLSearchParams({ vaultKind: 'regular' }))).map(
        (v) => v.sId,
      ),
    ).toEqual([ledger.dataSourceView.sId]);
    // A space the member cannot access adds nothing, even named.
    expect(
      ok(await client(member).searchDataSourceViews(new URLSearchParams({ vaultId: financeSpace }))),
    ).toEqual([]);
    // Another workspace's views never show.
    const foreign = ok(
      await client(b.admin).searchDataSourceViews(
        new URLSearchParams({ dataSourceId: ledger.dataSource.sId }),
      ),
    );
    expect(foreign).toEqual([]);
  });

  it('patches a view on the public family: parents replaced, or added and removed as Dust does', async () => {
    const dust = client(a.admin);
    const view = { sId: shared.sId, spaceId: globalSpace };
    const added = ok(
      await dust.patchDataSourceView(view as never, { parentsToAdd: ['faq'], parentsToRemove: ['reports'] }),
    );
    expect(added.parentsIn).toEqual(['faq']);
    const replaced = ok(
      await dust.patchDataSourceView(view as never, { parentsIn: ['handbook', 'policies'] }),
    );
    expect(replaced.parentsIn).toEqual(['handbook', 'policies']);
    const stored = await t.dataSource.query<{ parents_in: string[] }[]>(
      'SELECT parents_in FROM data_source_views WHERE s_id = $1',
      [shared.sId],
    );
    expect(stored[0].parents_in).toEqual(['handbook', 'policies']);

    // A view of the whole data source, once parents are added, exposes only those.
    const whole = { sId: handbook.dataSourceView.sId, spaceId: globalSpace };
    expect(
      ok(
        await dust.patchDataSourceView(whole as never, {
          parentsToAdd: ['a', 'a', 'b'],
          parentsToRemove: undefined,
        }),
      ).parentsIn,
    ).toEqual(['a', 'b']);
    expect(
      ok(await dust.patchDataSourceView(whole as never, { parentsIn: null } as never)).parentsIn,
    ).toBeNull();
  });

  it('refuses bad patches and searches with 400, others than admins with 403, other workspaces with 404', async () => {
    const patch = `/api/v1/w/${wId}/spaces/${globalSpace}/data_source_views/${shared.sId}`;
    const before = await t.dataSource.query('SELECT parents_in FROM data_source_views WHERE s_id = $1', [
      shared.sId,
    ]);
    const refused = async (
      res: { status: number; body: { error?: { type: string; message: string } } },
      text: RegExp,
    ) => {
      expect({ status: res.status, type: res.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error!.message).toMatch(text);
    };
    await refused(await api(t, a.admin).patch(patch).send({}), /give parentsIn, or parentsToAdd/);
    await refused(
      await api(t, a.admin)
        .patch(patch)
        .send({ parentsIn: ['x'], parentsToAdd: ['y'] }),
      /give parentsIn/,
    );
    await refused(await api(t, a.admin).patch(patch).send({ parentsToAdd: 'faq' }), /parentsToAdd/);
    await refused(
      await api(t, a.admin)
        .patch(patch)
        .send({ parentsToAdd: [''] }),
      /parentsToAdd/,
    );
    await refused(
      await api(t, a.admin)
        .patch(patch)
        .send({ parentsToAdd: ['x'.repeat(513)] }),
      /parentsToAdd/,
    );
    await refused(
      await api(t, a.admin)
        .patch(patch)
        .send({ parentsToRemove: ['x'], colour: 1 }),
      /colour/,
    );
    const search = `/api/v1/w/${wId}/data_source_views/search`;
    await refused(await api(t, member).get(`${search}?kind=folder`), /kind/);
    await refused(await api(t, member).get(`${search}?vaultKind=system`), /vaultKind/);
    await refused(await api(t, member).get(`${search}?spaceId=x`), /spaceId/);
    await refused(await api(t, member).get(`${search}?vaultId=${'v'.repeat(65)}`), /vaultId/);

    const asMember = await api(t, member)
      .patch(patch)
      .send({ parentsToAdd: ['faq'] });
    expect({ status: asMember.status, type: asMember.body.error?.type }).toEqual({
      status: 403,
      type: expect.any(String),
    });
    const noScope = await world.key({ user: a.admin.user, workspace: a.workspace }, ['read:data_source']);
    const scoped = await api(t, noScope)
      .patch(patch)
      .send({ parentsToAdd: ['faq'] });
    expect({ status: scoped.status, type: scoped.body.error?.type }).toEqual({
      status: 403,
      type: 'insufficient_key_scope',
    });
    const searchScope = await world.key({ user: member.user, workspace: a.workspace }, ['read:agent']);
    const unscopedSearch = await api(t, searchScope).get(search);
    expect({ status: unscopedSearch.status, type: unscopedSearch.body.error?.type }).toEqual({
      status: 403,
      type: 'insufficient_key_scope',
    });
    const foreign = await api(t, b.admin)
      .patch(`/api/v1/w/${b.workspace.sId}/spaces/${globalSpace}/data_source_views/${shared.sId}`)
      .send({ parentsToAdd: ['faq'] });
    expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
      status: 404,
      type: 'space_not_found',
    });
    expect(
      await t.dataSource.query('SELECT parents_in FROM data_source_views WHERE s_id = $1', [shared.sId]),
    ).toEqual(before);
  });

  it('counts every document of a data source in a list page, whatever the page', async () => {
    const documents = `/api/v1/w/${wId}/spaces/${globalSpace}/data_sources/${handbook.dataSource.sId}/documents`;
    for (const id of ['refunds', 'returns', 'shipping']) {
      await api(t, member)
        .post(`${documents}/${id}`)
        .send({ title: id, text: `About ${id}.` })
        .expect(200);
    }
    const first = await api(t, member).get(`${documents}?limit=1`).expect(200);
    expect(first.body).toMatchApiSchema('DocumentsResponse');
    expect({ listed: first.body.documents.length, total: first.body.total }).toEqual({ listed: 1, total: 3 });
    await api(t, member).delete(`${documents}/returns`).expect(200);
    const after = await api(t, member)
      .get(`${documents}?limit=1&cursor=${first.body.nextCursor}`)
      .expect(200);
    expect(after.body.total).toBe(2);
    const foreign = await api(t, b.admin).get(
      `/api/v1/w/${b.workspace.sId}/spaces/${globalSpace}/data_sources/${handbook.dataSource.sId}/documents`,
    );
    expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
      status: 404,
      type: 'space_not_found',
    });
  });

  describe("a view's document search, with the fields 1.2.8 reads of a document", () => {
    const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    // 300 words: two chunks of 256 words, sharing 32.
    const words = Array.from({ length: 300 }, (_, index) => (index % 50 === 7 ? 'refund' : `word${index}`));
    const policyText = words.join(' ');
    let policies: { dataSource: { sId: string }; dataSourceView: ViewBody };
    let searchPath: string;

    beforeAll(async () => {
      policies = await dataSource(globalSpace, 'Policies');
      const documents = `/api/v1/w/${wId}/spaces/${globalSpace}/data_sources/${policies.dataSource.sId}/documents`;
      await api(t, member)
        .post(`${documents}/refund-policy`)
        .send({
          title: 'Refund policy',
          text: policyText,
          tags: ['policy'],
          parents: ['refund-policy', 'policies'],
          timestamp: 1_700_000_000_000,
          source_url: 'https://intranet.example.com/refunds',
        })
        .expect(200);
      await api(t, member)
        .post(`${documents}/shipping`)
        .send({ title: 'Shipping', text: 'Parcels leave within two days; a refund covers lost parcels.' })
        .expect(200);
      searchPath = `/api/v1/w/${wId}/spaces/${globalSpace}/data_source_views/${policies.dataSourceView.sId}/search`;
    });

    it('answers each document as a CoreAPIDocument: its stored fields, and each chunk with its hash', async () => {
      const res = await api(t, member).get(`${searchPath}?query=refund&top_k=8`).expect(200);
      expect(res.body).toMatchApiSchema('SearchResponse');
      const policy = res.body.documents.find(
        (document: { document_id: string }) => document.document_id === 'refund-policy',
      );
      expect(policy).toMatchObject({
        data_source_id: policies.dataSource.sId,
        document_id: 'refund-policy',
        title: 'Refund policy',
        timestamp: 1_700_000_000_000,
        tags: ['policy'],
        parents: ['refund-policy', 'policies'],
        parent_id: 'policies',
        source_url: 'https://intranet.example.com/refunds',
        hash: sha256(policyText),
        text_size: Buffer.byteLength(policyText),
        chunk_count: 2,
        text: null,
        created: expect.any(Number),
      });
      expect(policy.chunks.length).toBe(2);
      for (const chunk of policy.chunks as { text: string; hash: string; offset: number; score: number }[]) {
        expect(chunk.hash).toBe(sha256(chunk.text));
        expect(policyText.slice(chunk.offset, chunk.offset + chunk.text.length)).toBe(chunk.text);
        expect(chunk.score).toBeGreaterThan(0);
      }
      const shipping = res.body.documents.find(
        (document: { document_id: string }) => document.document_id === 'shipping',
      );
      expect(shipping).toMatchObject({ parent_id: null, chunk_count: 1, text: null });
    });

    it('gives each document its whole text with full_text=true, and refuses a full_text it cannot read', async () => {
      const full = await api(t, member).get(`${searchPath}?query=refund&full_text=true`).expect(200);
      expect(full.body).toMatchApiSchema('SearchResponse');
      const texts = Object.fromEntries(
        full.body.documents.map((document: { document_id: string; text: string }) => [
          document.document_id,
          document.text,
        ]),
      );
      expect(texts).toEqual({
        'refund-policy': policyText,
        shipping: 'Parcels leave within two days; a refund covers lost parcels.',
      });
      const without = await api(t, member).get(`${searchPath}?query=refund&full_text=false`).expect(200);
      expect(without.body.documents.map((document: { text: unknown }) => document.text)).toEqual([
        null,
        null,
      ]);

      const bad = await api(t, member).get(`${searchPath}?query=refund&full_text=yes`);
      expect({ status: bad.status, type: bad.body.error?.type }).toEqual({
        status: 400,
        type: 'invalid_request_error',
      });
      expect(bad.body.error.message).toMatch(/full_text/);
    });

    it("lists documents with Dust's chunks (none: they are what search returns)", async () => {
      const documents = `/api/v1/w/${wId}/spaces/${globalSpace}/data_sources/${policies.dataSource.sId}/documents`;
      const res = await api(t, member).get(documents).expect(200);
      expect(res.body).toMatchApiSchema('DocumentsResponse');
      expect(res.body.documents.map((document: { chunks: unknown[] }) => document.chunks)).toEqual([[], []]);
      expect(res.body.total).toBe(2);
    });

    it('searches no view of another workspace, nor of a space the caller cannot access', async () => {
      const foreign = await api(t, b.admin).get(
        `/api/v1/w/${b.workspace.sId}/spaces/${globalSpace}/data_source_views/${policies.dataSourceView.sId}/search?query=refund`,
      );
      expect({ status: foreign.status, type: foreign.body.error?.type }).toEqual({
        status: 404,
        type: 'space_not_found',
      });
      const restricted = await api(t, member).get(
        `/api/v1/w/${wId}/spaces/${financeSpace}/data_source_views/${ledger.dataSourceView.sId}/search?query=refund&full_text=true`,
      );
      expect({ status: restricted.status, type: restricted.body.error?.type }).toEqual({
        status: 404,
        type: 'space_not_found',
      });
    });
  });
});

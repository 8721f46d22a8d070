import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect, expectError } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

interface DataSourceViewBody {
  sId: string;
  id: number;
  kind: string;
  category: string;
  parentsIn: string[] | null;
  spaceId: string;
  createdAt: number;
  updatedAt: number;
  editedByUser: { fullName: string; editedAt: number };
  dataSource: Record<string, unknown> & { id: number };
}

/** A view's `editedByUser`: the specification's fields and Dust's. */
const editor = (actor: Actor, editedAt: unknown) => ({
  fullName: actor.user.fullName,
  editedAt,
  userId: actor.user.sId,
  email: actor.user.email,
  imageUrl: null,
});

describe('data sources and data source views', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let user: Actor;
  let builder: Actor;
  let globalSpace: string;
  let financeSpace: string;
  let foreignSpace: string;
  /** The managed data source every test may read; tests that change views make their own. */
  let handbook: { sId: string; view: DataSourceViewBody };

  const admin = (spaceId: string, suffix: string) => `/api/w/${a.workspace.sId}/spaces/${spaceId}${suffix}`;
  const views = (spaceId: string, wId = a.workspace.sId) =>
    `/api/v1/w/${wId}/spaces/${spaceId}/data_source_views`;

  const createDataSource = async (spaceId: string, body: Record<string, unknown>) => {
    const res = await api(t, a.admin).post(admin(spaceId, '/data_sources')).send(body).expect(200);
    expect(res.body).toMatchApiSchema('CreatedDataSourceResponse');
    return {
      sId: res.body.dataSource.sId as string,
      dataSource: res.body.dataSource as Record<string, unknown>,
      view: res.body.dataSourceView as DataSourceViewBody,
    };
  };

  const listViews = async (actor: Actor, spaceId: string): Promise<DataSourceViewBody[]> => {
    const res = await api(t, actor).get(views(spaceId)).expect(200);
    expect(res.body).toMatchApiSchema('DataSourceViewsResponse');
    return res.body.dataSourceViews as DataSourceViewBody[];
  };

  const counts = async () =>
    t.dataSource.query<{ sources: string; views: string }[]>(
      'SELECT (SELECT count(*) FROM data_sources) AS sources, (SELECT count(*) FROM data_source_views) AS views',
    );

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    user = await world.member(a.workspace, 'user');
    builder = await world.member(a.workspace, 'builder');
    [globalSpace, foreignSpace] = await Promise.all([world.globalSpace(a.admin), world.globalSpace(b.admin)]);
    // The admin creates the space without joining it: administration does not need membership.
    financeSpace = (await world.space(a.admin, { name: 'Finance', members: [builder] })).sId;
    handbook = await createDataSource(globalSpace, {
      name: 'Engineering handbook',
      description: 'How we build things.',
      connectorProvider: 'notion',
    });
  });
  afterAll(() => t.close());

  describe('creating a data source', () => {
    it('returns the data source and its default view in the space, with the specified fields', async () => {
      const before = Date.now();
      const created = await createDataSource(globalSpace, {
        name: 'Support tickets',
        connectorProvider: 'zendesk',
      });
      const dataSource = {
        id: expect.any(Number),
        createdAt: expect.any(Number),
        name: 'Support tickets',
        description: '',
        serviceAPIProjectId: expect.any(String),
        connectorId: expect.any(String),
        connectorProvider: 'zendesk',
        assistantDefaultSelected: true,
        sId: expect.stringMatching(/^dts_[0-9A-Za-z]{10}$/),
        dustAPIProjectId: expect.any(String),
        dustAPIDataSourceId: expect.any(String),
      };
      expect(created.dataSource).toEqual(dataSource);
      // Dust's names of the same handles.
      expect(created.dataSource.dustAPIProjectId).toBe(created.dataSource.serviceAPIProjectId);
      expect(created.dataSource.dustAPIDataSourceId).toBe(created.dataSource.sId);
      expect(created.view).toEqual({
        category: 'managed',
        createdAt: expect.any(Number),
        dataSource: created.dataSource,
        editedByUser: editor(a.admin, created.view.createdAt),
        id: expect.any(Number),
        kind: 'default',
        parentsIn: null,
        sId: expect.stringMatching(/^dsv_[0-9A-Za-z]{10}$/),
        updatedAt: created.view.createdAt,
        spaceId: globalSpace,
      });
      expect(Number.isInteger(created.view.id) && Number.isInteger(created.view.dataSource.id)).toBe(true);
      // Milliseconds since the epoch, taken by the database clock during this request.
      expect(created.view.createdAt).toBeGreaterThan(before - 5_000);
      expect(created.view.createdAt).toBeLessThan(Date.now() + 5_000);
      expect(created.dataSource.connectorId).not.toEqual(handbook.view.dataSource.connectorId);
    });

    it('derives the category from the connector: folder without one, website for the web crawler', async () => {
      const folder = await createDataSource(globalSpace, { name: 'Uploads' });
      expect(folder.view).toMatchObject({
        category: 'folder',
        dataSource: { connectorProvider: null, assistantDefaultSelected: false },
      });
      const explicitFolder = await createDataSource(globalSpace, {
        name: 'Contracts',
        connectorProvider: null,
      });
      expect(explicitFolder.view.category).toBe('folder');
      const website = await createDataSource(globalSpace, {
        name: 'Docs site',
        connectorProvider: 'webcrawler',
      });
      expect(website.view).toMatchObject({
        category: 'website',
        dataSource: { connectorProvider: 'webcrawler', assistantDefaultSelected: false },
      });
    });

    it('can create in a regular space the admin is not a member of', async () => {
      const created = await createDataSource(financeSpace, {
        name: 'Ledgers',
        connectorProvider: 'snowflake',
      });
      expect(created.view).toMatchObject({ kind: 'default', spaceId: financeSpace });
    });

    it('refuses a name already used in the workspace, whatever its case', async () => {
      const res = await api(t, a.admin)
        .post(admin(financeSpace, '/data_sources'))
        .send({ name: '  engineering HANDBOOK ' });
      expectError(res, 409, 'conflict');
      expect(res.body.error.message).toContain('engineering HANDBOOK');
      // Another workspace may use the name.
      await api(t, b.admin)
        .post(`/api/w/${b.workspace.sId}/spaces/${foreignSpace}/data_sources`)
        .send({ name: 'Engineering handbook' })
        .expect(200);
    });

    it('compares names after Unicode compatibility folding (NFKC) and refuses invisible characters', async () => {
      const count = async () =>
        Number((await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM data_sources'))[0].n);
      await createDataSource(globalSpace, { name: 'Ledger book' });
      const before = await count();
      // Full-width look-alikes are the same name.
      for (const name of ['Ｌｅｄｇｅｒ ｂｏｏｋ', 'LEDGER BOOＫ']) {
        const res = await api(t, a.admin).post(admin(globalSpace, '/data_sources')).send({ name });
        expectError(res, 409, 'conflict');
      }
      for (const name of [
        'Ledgers\u200b',
        'Led\u200dgers',
        '\u2066Ledgers\u2069',
        'Ledg\u00aders',
        'No\ufefftes',
      ]) {
        const res = await api(t, a.admin).post(admin(globalSpace, '/data_sources')).send({ name });
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toMatch(
          /^name: must not contain U\+[0-9A-F]{4}, an? (invisible|bidirectional control) character/,
        );
      }
      expect(await count()).toBe(before);
      // Emoji keep their variation selector; the ﬁ ligature folds to "fi".
      const emoji = await createDataSource(globalSpace, { name: '❤️ Favourite ﬁles' });
      expect(emoji.dataSource.name).toBe('❤️ Favourite ﬁles');
      expectError(
        await api(t, a.admin).post(admin(globalSpace, '/data_sources')).send({ name: '❤️ favourite files' }),
        409,
        'conflict',
      );
    });

    it('lets exactly one of several simultaneous creations with the same name succeed', async () => {
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          api(t, a.admin)
            .post(admin(globalSpace, '/data_sources'))
            .send({ name: i % 2 === 0 ? 'Race' : 'RACE' }),
        ),
      );
      expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expectError(res, 409, 'conflict');
      const rows = await t.dataSource.query<{ n: string }[]>(
        "SELECT count(*) AS n FROM data_sources WHERE lower(name) = 'race'",
      );
      expect(rows[0].n).toBe('1');
    });

    it('names the invalid field and writes nothing', async () => {
      const before = await counts();
      for (const [body, field] of [
        [{}, 'name'],
        [{ name: '' }, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(101) }, 'name'],
        [{ name: 42 }, 'name'],
        [{ name: 'Bad provider', connectorProvider: 'dropbox' }, 'connectorProvider'],
        [{ name: 'Bad provider', connectorProvider: 7 }, 'connectorProvider'],
        [{ name: 'Bad description', description: null }, 'description'],
        [{ name: 'Bad description', description: 'x'.repeat(1001) }, 'description'],
        [{ name: 'Extra', connectorId: 'mine' }, 'connectorId'],
      ] as const) {
        const res = await api(t, a.admin).post(admin(globalSpace, '/data_sources')).send(body);
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toContain(field);
      }
      expect(await counts()).toEqual(before);
    });

    it('is for admins with the write:data_source scope, in a space of their workspace', async () => {
      for (const actor of [user, builder]) {
        expectError(
          await api(t, actor).post(admin(globalSpace, '/data_sources')).send({ name: 'Mine' }),
          403,
          'workspace_auth_error',
        );
      }
      const readOnly = await world.key(a.admin, ['read:data_source']);
      expectError(
        await api(t, readOnly).post(admin(globalSpace, '/data_sources')).send({ name: 'Mine' }),
        403,
        'insufficient_key_scope',
      );
      for (const spaceId of [foreignSpace, 'vlt_noSuchSpc']) {
        expectError(
          await api(t, a.admin).post(admin(spaceId, '/data_sources')).send({ name: 'Mine' }),
          404,
          'space_not_found',
        );
      }
      expectError(
        await api(t, b.admin).post(admin(globalSpace, '/data_sources')).send({ name: 'Mine' }),
        401,
        'workspace_auth_error',
      );
    });
  });

  describe('listing the views of a space (endpoint 12)', () => {
    it('shows the views of the global space to every member, exactly as created', async () => {
      for (const actor of [a.admin, builder, user]) {
        const list = await listViews(actor, globalSpace);
        expect(list.find((view) => view.sId === handbook.view.sId)).toEqual(handbook.view);
        expect(list.every((view) => view.spaceId === globalSpace)).toBe(true);
      }
    });

    it('shows the views of a regular space only to its members', async () => {
      const ledger = await createDataSource(financeSpace, { name: 'Payroll', connectorProvider: 'bigquery' });
      const list = await listViews(builder, financeSpace);
      expect(list.map((view) => view.sId)).toContain(ledger.view.sId);
      for (const actor of [user, a.admin]) {
        expectError(await api(t, actor).get(views(financeSpace)), 404, 'space_not_found');
      }
    });

    it('lists oldest first and nothing of another workspace', async () => {
      const list = await listViews(user, globalSpace);
      const ids = list.map((view) => view.id);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      const foreign = await api(t, b.admin).get(views(foreignSpace, b.workspace.sId)).expect(200);
      expect(foreign.body).toMatchApiSchema('DataSourceViewsResponse');
      expect(
        (foreign.body.dataSourceViews as DataSourceViewBody[]).map((v) => v.dataSource.id),
      ).not.toContain(handbook.view.dataSource.id);
    });

    it("answers another workspace's key with 401 and a foreign or unknown space with 404", async () => {
      expectError(await api(t, b.admin).get(views(globalSpace)), 401, 'workspace_auth_error');
      for (const spaceId of [foreignSpace, 'vlt_noSuchSpc']) {
        expectError(await api(t, a.admin).get(views(spaceId)), 404, 'space_not_found');
      }
    });

    it('needs the read:data_source scope', async () => {
      const narrow = await world.key(user, ['read:agent', 'write:data_source']);
      expectError(await api(t, narrow).get(views(globalSpace)), 403, 'insufficient_key_scope');
      const enough = await world.key(user, ['read:data_source']);
      await listViews(enough, globalSpace);
    });
  });

  describe('custom views', () => {
    it('shares a data source into another space once, with the chosen parents', async () => {
      const source = await createDataSource(globalSpace, {
        name: 'Roadmaps',
        connectorProvider: 'google_drive',
      });
      const res = await api(t, a.admin)
        .post(admin(financeSpace, '/data_source_views'))
        .send({ dataSourceId: source.sId, parentsIn: ['folder-1', 'folder-2', 'folder-1'] })
        .expect(200);
      expect(res.body).toMatchApiSchema('DataSourceViewResponse');
      const view = res.body.dataSourceView as DataSourceViewBody;
      expect(view).toEqual({
        ...source.view,
        sId: expect.stringMatching(/^dsv_/),
        id: expect.any(Number),
        kind: 'custom',
        parentsIn: ['folder-1', 'folder-2'],
        spaceId: financeSpace,
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
        editedByUser: editor(a.admin, expect.any(Number)),
      });
      expect(view.sId).not.toBe(source.view.sId);
      expect((await listViews(builder, financeSpace)).find((v) => v.sId === view.sId)).toEqual(view);
      expect((await listViews(user, globalSpace)).map((v) => v.sId)).not.toContain(view.sId);

      for (const spaceId of [financeSpace, globalSpace]) {
        expectError(
          await api(t, a.admin).post(admin(spaceId, '/data_source_views')).send({ dataSourceId: source.sId }),
          409,
          'conflict',
        );
      }
    });

    it('exposes the whole data source when parentsIn is absent', async () => {
      const source = await createDataSource(financeSpace, { name: 'Invoices' });
      const res = await api(t, a.admin)
        .post(admin(globalSpace, '/data_source_views'))
        .send({ dataSourceId: source.sId })
        .expect(200);
      expect(res.body.dataSourceView).toMatchObject({ kind: 'custom', category: 'folder', parentsIn: null });
    });

    it('refuses an unknown or foreign data source and bad parents, naming the field and writing nothing', async () => {
      const foreign = await api(t, b.admin)
        .post(`/api/w/${b.workspace.sId}/spaces/${foreignSpace}/data_sources`)
        .send({ name: 'Foreign notes' })
        .expect(200);
      const before = await counts();
      for (const [body, field] of [
        [{}, 'dataSourceId'],
        [{ dataSourceId: 'dts_noSuchDts' }, 'dataSourceId'],
        [{ dataSourceId: foreign.body.dataSource.sId }, 'dataSourceId'],
        [{ dataSourceId: 'not an id!' }, 'dataSourceId'],
        [{ dataSourceId: handbook.sId, parentsIn: 'folder-1' }, 'parentsIn'],
        [{ dataSourceId: handbook.sId, parentsIn: [1] }, 'parentsIn'],
        [{ dataSourceId: handbook.sId, parentsIn: [''] }, 'parentsIn'],
        [{ dataSourceId: handbook.sId, kind: 'default' }, 'kind'],
      ] as const) {
        const res = await api(t, a.admin).post(admin(financeSpace, '/data_source_views')).send(body);
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toContain(field);
      }
      expect(await counts()).toEqual(before);
    });

    it('is for admins, in a space of their workspace', async () => {
      const body = { dataSourceId: handbook.sId };
      expectError(
        await api(t, builder).post(admin(financeSpace, '/data_source_views')).send(body),
        403,
        'workspace_auth_error',
      );
      expectError(
        await api(t, a.admin).post(admin(foreignSpace, '/data_source_views')).send(body),
        404,
        'space_not_found',
      );
    });
  });

  describe('updating and deleting a view', () => {
    let source: Awaited<ReturnType<typeof createDataSource>>;
    let custom: DataSourceViewBody;
    const viewPath = (spaceId: string, viewId: string) => admin(spaceId, `/data_source_views/${viewId}`);

    beforeAll(async () => {
      source = await createDataSource(globalSpace, { name: 'Wiki', connectorProvider: 'confluence' });
      custom = (
        await api(t, a.admin)
          .post(admin(financeSpace, '/data_source_views'))
          .send({ dataSourceId: source.sId, parentsIn: ['space-eng'] })
          .expect(200)
      ).body.dataSourceView;
    });

    it('replaces parentsIn and records the editor and the time', async () => {
      const second = await world.member(a.workspace, 'admin');
      // The edit's time, in ms, must be later than the creation's: a few ms of the real clock pass.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await api(t, second)
        .patch(viewPath(financeSpace, custom.sId))
        .send({ parentsIn: ['space-ops', 'space-eng'] })
        .expect(200);
      expect(res.body).toMatchApiSchema('DataSourceViewResponse');
      const updated = res.body.dataSourceView as DataSourceViewBody;
      expect(updated).toEqual({
        ...custom,
        parentsIn: ['space-ops', 'space-eng'],
        editedByUser: editor(second, updated.updatedAt),
        updatedAt: expect.any(Number),
      });
      expect(updated.updatedAt).toBeGreaterThan(custom.updatedAt);
      expect((await listViews(builder, financeSpace)).find((v) => v.sId === custom.sId)).toEqual(updated);

      const whole = await api(t, a.admin).patch(viewPath(financeSpace, custom.sId)).send({ parentsIn: null });
      expect(whole.status).toBe(200);
      expect(whole.body.dataSourceView).toMatchObject({
        parentsIn: null,
        editedByUser: { fullName: a.admin.user.fullName },
      });
      custom = whole.body.dataSourceView;
    });

    it('refuses a bad parentsIn, naming it and changing nothing', async () => {
      for (const body of [{}, { parentsIn: 'space-eng' }, { parentsIn: [''] }, { parentsIn: [null] }]) {
        const res = await api(t, a.admin).patch(viewPath(financeSpace, custom.sId)).send(body);
        expectError(res, 400, 'invalid_request_error');
        expect(res.body.error.message).toContain('parentsIn');
      }
      expect((await listViews(builder, financeSpace)).find((v) => v.sId === custom.sId)).toEqual(custom);
    });

    it('finds a view only in its own space and workspace', async () => {
      expectError(
        await api(t, a.admin).patch(viewPath(globalSpace, custom.sId)).send({ parentsIn: [] }),
        404,
        'data_source_view_not_found',
      );
      expectError(
        await api(t, a.admin).delete(viewPath(globalSpace, custom.sId)),
        404,
        'data_source_view_not_found',
      );
      expectError(await api(t, a.admin).delete(viewPath(foreignSpace, custom.sId)), 404, 'space_not_found');
      expectError(
        await api(t, b.admin).delete(
          `/api/w/${b.workspace.sId}/spaces/${foreignSpace}/data_source_views/${custom.sId}`,
        ),
        404,
        'data_source_view_not_found',
      );
      expectError(
        await api(t, user).patch(viewPath(financeSpace, custom.sId)).send({ parentsIn: [] }),
        403,
        'workspace_auth_error',
      );
    });

    it('refuses to delete the default view', async () => {
      const before = await counts();
      const res = await api(t, a.admin).delete(viewPath(globalSpace, source.view.sId));
      expectError(res, 400, 'invalid_request_error');
      expect(res.body.error.message).toContain('default view');
      expect(await counts()).toEqual(before);
    });

    it('deletes a custom view and returns it', async () => {
      const res = await api(t, a.admin).delete(viewPath(financeSpace, custom.sId)).expect(200);
      expect(res.body).toMatchApiSchema('DataSourceViewResponse');
      expect(res.body.dataSourceView).toEqual(custom);
      expect((await listViews(builder, financeSpace)).map((v) => v.sId)).not.toContain(custom.sId);
      expect((await listViews(user, globalSpace)).map((v) => v.sId)).toContain(source.view.sId);
      expectError(
        await api(t, a.admin).delete(viewPath(financeSpace, custom.sId)),
        404,
        'data_source_view_not_found',
      );
      // The data source can be shared into the space again.
      await api(t, a.admin)
        .post(admin(financeSpace, '/data_source_views'))
        .send({ dataSourceId: source.sId })
        .expect(200);
    });

    it('answers simultaneous changes of one view with a success and a clean 404, never a 500', async () => {
      const shared = await createDataSource(financeSpace, { name: 'Board minutes' });
      for (const second of ['delete', 'patch'] as const) {
        const view = (
          await api(t, a.admin)
            .post(admin(globalSpace, '/data_source_views'))
            .send({ dataSourceId: shared.sId })
            .expect(200)
        ).body.dataSourceView as DataSourceViewBody;
        const path = viewPath(globalSpace, view.sId);
        const [first, other] = await Promise.all([
          api(t, a.admin).delete(path),
          second === 'delete'
            ? api(t, a.admin).delete(path)
            : api(t, a.admin)
                .patch(path)
                .send({ parentsIn: ['x'] }),
        ]);
        for (const res of [first, other]) {
          if (res.status !== 200) expectError(res, 404, 'data_source_view_not_found');
        }
        // Of two deletions exactly one succeeds; a deletion always succeeds against a patch.
        if (second === 'delete') expect([first.status, other.status].sort()).toEqual([200, 404]);
        else expect(first.status).toBe(200);
      }
    });
  });
});

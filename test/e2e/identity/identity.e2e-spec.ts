import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';

describe('members, API keys and spaces', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let user: Actor;
  let builder: Actor;
  const path = (suffix: string) => `/api/w/${a.workspace.sId}${suffix}`;

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    user = await world.member(a.workspace, 'user');
    builder = await world.member(a.workspace, 'builder');
  });
  afterAll(() => t.close());

  describe('members', () => {
    it('lists the members with their roles', async () => {
      const res = await api(t, user).get(path('/members')).expect(200);
      expect(res.body).toMatchApiSchema('MembersResponse');
      const roles = Object.fromEntries(
        (res.body.members as { user: { sId: string }; role: string }[]).map((m) => [m.user.sId, m.role]),
      );
      expect(roles).toEqual({
        [a.admin.user.sId]: 'admin',
        [user.user.sId]: 'user',
        [builder.user.sId]: 'builder',
      });
    });

    it('describes the caller at /me', async () => {
      const res = await api(t, builder).get(path('/me')).expect(200);
      expect(res.body).toMatchApiSchema('MeResponse');
      expect(res.body).toMatchObject({
        user: { sId: builder.user.sId, email: builder.user.email },
        workspace: { sId: a.workspace.sId },
        role: 'builder',
        keyId: builder.keyId,
      });
      expect(res.body.scopes).toHaveLength(9);
    });

    it('lets an admin add a member, and refuses the same email twice', async () => {
      const body = { email: 'Grace@Example.com', fullName: 'Grace Hopper', role: 'builder' };
      const res = await api(t, a.admin).post(path('/members')).send(body).expect(200);
      expect(res.body).toMatchApiSchema('MemberResponse');
      expect(res.body.member).toMatchObject({
        role: 'builder',
        user: {
          email: 'grace@example.com',
          fullName: 'Grace Hopper',
          firstName: 'Grace',
          lastName: 'Hopper',
        },
      });
      const again = await api(t, a.admin).post(path('/members')).send(body).expect(409);
      expect(again.body.error.type).toBe('conflict');
    });

    it('does not let a user or a builder add members', async () => {
      for (const actor of [user, builder]) {
        const res = await api(t, actor)
          .post(path('/members'))
          .send({ email: 'x@example.com', fullName: 'X', role: 'user' })
          .expect(403);
        expect(res.body.error.type).toBe('workspace_auth_error');
      }
    });

    it('names the invalid field and writes nothing', async () => {
      const before = await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM users');
      for (const [body, field] of [
        [{ email: 'not-an-email', fullName: 'X', role: 'user' }, 'email'],
        [{ email: 'y@example.com', fullName: 'Y', role: 'owner' }, 'role'],
        [{ email: 'z@example.com', fullName: 'Z', role: 'user', isAdmin: true }, 'isAdmin'],
        [{ email: 'w@example.com', fullName: '', role: 'user' }, 'fullName'],
      ] as const) {
        const res = await api(t, a.admin).post(path('/members')).send(body).expect(400);
        expect(res.body.error.type).toBe('invalid_request_error');
        expect(res.body.error.message).toContain(field);
      }
      expect(await t.dataSource.query('SELECT count(*) AS n FROM users')).toEqual(before);
    });

    it('never lets the last admin be demoted, but demotes one of two', async () => {
      const own = await api(t, a.admin)
        .patch(path(`/members/${a.admin.user.sId}`))
        .send({ role: 'builder' })
        .expect(403);
      expect(own.body.error.type).toBe('workspace_auth_error');
      const second = await world.member(a.workspace, 'admin');
      const res = await api(t, second)
        .patch(path(`/members/${a.admin.user.sId}`))
        .send({ role: 'builder' })
        .expect(200);
      expect(res.body.member.role).toBe('builder');
      await api(t, second)
        .patch(path(`/members/${second.user.sId}`))
        .send({ role: 'user' })
        .expect(403);
      await api(t, second)
        .patch(path(`/members/${a.admin.user.sId}`))
        .send({ role: 'admin' })
        .expect(200);
    });

    it('answers an unknown or foreign member with 404', async () => {
      for (const userId of ['noSuchUser', b.admin.user.sId]) {
        const res = await api(t, a.admin)
          .patch(path(`/members/${userId}`))
          .send({ role: 'user' })
          .expect(404);
        expect(res.body.error.type).toBe('user_not_found');
      }
    });
  });

  describe('API keys', () => {
    it('returns the secret once, stores only its hash, and never lists secrets', async () => {
      const res = await api(t, user).post(path('/keys')).send({ name: 'laptop' }).expect(200);
      expect(res.body).toMatchApiSchema('CreatedApiKeyResponse');
      const { secret, id } = res.body.apiKey as { secret: string; id: string };
      expect(secret).toMatch(/^sk-[0-9A-Za-z]{32}$/);
      expect(id).toMatch(/^key_/);
      await api(t, { secret }).get(path('/me')).expect(200);

      const rows = await t.dataSource.query<Record<string, unknown>[]>(
        'SELECT * FROM api_keys WHERE s_id = $1',
        [id],
      );
      expect(JSON.stringify(rows)).not.toContain(secret.slice(3));
      expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);

      const list = await api(t, user).get(path('/keys')).expect(200);
      expect(list.body).toMatchApiSchema('ApiKeysResponse');
      expect(JSON.stringify(list.body)).not.toContain(secret.slice(3));
      expect((list.body.apiKeys as { userId: string }[]).every((k) => k.userId === user.user.sId)).toBe(true);
    });

    it('lets admins see every key and members only their own', async () => {
      const adminList = await api(t, a.admin).get(path('/keys')).expect(200);
      const owners = new Set((adminList.body.apiKeys as { userId: string }[]).map((k) => k.userId));
      for (const owner of [a.admin, user, builder]) expect(owners.has(owner.user.sId)).toBe(true);
      const own = await api(t, builder).get(path('/keys')).expect(200);
      expect(new Set((own.body.apiKeys as { userId: string }[]).map((k) => k.userId))).toEqual(
        new Set([builder.user.sId]),
      );
    });

    it('needs the admin scope to create, list or revoke keys and to list members', async () => {
      const narrow = await world.key(user, ['read:file']);
      const keysBefore = await t.dataSource.query('SELECT s_id, revoked_at FROM api_keys ORDER BY id');
      for (const res of [
        await api(t, narrow).post(path('/keys')).send({ name: 'minted' }),
        await api(t, narrow)
          .post(path('/keys'))
          .send({ name: 'minted', scopes: ['read:file'] }),
        await api(t, narrow).get(path('/keys')),
        await api(t, narrow).delete(path(`/keys/${user.keyId}`)),
        await api(t, narrow).get(path('/members')),
      ]) {
        expect({ status: res.status, type: res.body.error?.type }).toEqual({
          status: 403,
          type: 'insufficient_key_scope',
        });
        expect(res.body).toMatchApiSchema('ErrorResponse');
      }
      expect(await t.dataSource.query('SELECT s_id, revoked_at FROM api_keys ORDER BY id')).toEqual(
        keysBefore,
      );
      const me = await api(t, narrow).get(path('/me')).expect(200);
      expect(me.body).toMatchApiSchema('MeResponse');
      for (const route of ['/keys', '/members']) {
        const item = t.document.paths[`/api/w/{wId}${route}`] as Record<string, Record<string, unknown>>;
        expect(item.get['x-required-scopes']).toEqual(['admin']);
      }
    });

    it('never grants more scopes than the calling key has', async () => {
      const narrow = await world.key(user, ['admin', 'read:agent']);
      const res = await api(t, narrow)
        .post(path('/keys'))
        .send({ name: 'wider', scopes: ['read:agent', 'write:file'] })
        .expect(403);
      expect(res.body).toMatchApiSchema('ErrorResponse');
      expect(res.body.error.message).toContain('write:file');
      const inherited = await api(t, narrow).post(path('/keys')).send({ name: 'same' }).expect(200);
      expect(inherited.body).toMatchApiSchema('CreatedApiKeyResponse');
      expect(inherited.body.apiKey.scopes).toEqual(['admin', 'read:agent']);
      const fewer = await api(t, narrow)
        .post(path('/keys'))
        .send({ name: 'fewer', scopes: ['read:agent'] })
        .expect(200);
      expect(fewer.body.apiKey.scopes).toEqual(['read:agent']);
      const adminNarrow = await world.key(a.admin, ['admin']);
      const forOther = await api(t, adminNarrow)
        .post(path('/keys'))
        .send({ name: 'for builder', userId: builder.user.sId, scopes: ['read:file'] })
        .expect(403);
      expect(forOther.body.error.message).toContain('read:file');
    });

    it('lets only admins create keys for another member', async () => {
      await api(t, user).post(path('/keys')).send({ name: 'for bob', userId: builder.user.sId }).expect(403);
      const res = await api(t, a.admin)
        .post(path('/keys'))
        .send({ name: 'for builder', userId: builder.user.sId, scopes: ['read:conversation'] })
        .expect(200);
      const me = await api(t, { secret: res.body.apiKey.secret }).get(path('/me')).expect(200);
      expect(me.body).toMatchObject({ user: { sId: builder.user.sId }, scopes: ['read:conversation'] });
    });

    it("does not let a member revoke another member's key, nor anyone a foreign key", async () => {
      await api(t, user)
        .delete(path(`/keys/${builder.keyId}`))
        .expect(404);
      await api(t, a.admin)
        .delete(path(`/keys/${b.admin.keyId}`))
        .expect(404);
      await api(t, builder).get(path('/me')).expect(200);
      await api(t, b.admin).get(`/api/w/${b.workspace.sId}/me`).expect(200);
    });
  });

  describe('spaces', () => {
    it('gives every workspace one global space', async () => {
      const res = await api(t, user).get(path('/spaces')).expect(200);
      expect(res.body).toMatchApiSchema('SpacesResponse');
      expect(res.body.spaces).toEqual([
        {
          sId: expect.stringMatching(/^vlt_/),
          name: 'Company Data',
          kind: 'global',
          createdAt: expect.any(Number),
          updatedAt: res.body.spaces[0].createdAt,
          isRestricted: false,
          groupIds: [],
          memberIds: null,
        },
      ]);
    });

    it('shows a regular space only to its members', async () => {
      const created = await api(t, a.admin)
        .post(path('/spaces'))
        .send({ name: 'Finance', memberIds: [builder.user.sId] })
        .expect(200);
      expect(created.body).toMatchApiSchema('SpaceResponse');
      expect(created.body.space).toMatchObject({
        name: 'Finance',
        kind: 'regular',
        isRestricted: true,
        memberIds: [builder.user.sId],
      });
      const spaceId = created.body.space.sId as string;

      const names = async (actor: Actor) =>
        ((await api(t, actor).get(path('/spaces')).expect(200)).body.spaces as { name: string }[]).map(
          (s) => s.name,
        );
      expect(await names(builder)).toEqual(['Company Data', 'Finance']);
      expect(await names(user)).toEqual(['Company Data']);

      const added = await api(t, a.admin)
        .post(path(`/spaces/${spaceId}/members/${user.user.sId}`))
        .expect(200);
      expect(added.body.space.memberIds).toEqual([builder.user.sId, user.user.sId]);
      expect(await names(user)).toEqual(['Company Data', 'Finance']);

      await api(t, a.admin)
        .delete(path(`/spaces/${spaceId}/members/${user.user.sId}`))
        .expect(200);
      expect(await names(user)).toEqual(['Company Data']);
    });

    it('does not let a user create spaces, and refuses a duplicate name', async () => {
      const denied = await api(t, user).post(path('/spaces')).send({ name: 'Mine' }).expect(403);
      expect(denied.body.error.type).toBe('workspace_auth_error');
      await api(t, a.admin).post(path('/spaces')).send({ name: 'Legal' }).expect(200);
      const duplicate = await api(t, a.admin).post(path('/spaces')).send({ name: 'legal' }).expect(409);
      expect(duplicate.body.error.type).toBe('conflict');
    });

    it('compares space names after NFKC folding and refuses invisible characters, writing nothing', async () => {
      const count = async () =>
        Number((await t.dataSource.query<{ n: string }[]>('SELECT count(*) AS n FROM spaces'))[0].n);
      const created = await api(t, a.admin).post(path('/spaces')).send({ name: 'Ledger' }).expect(200);
      expect(created.body).toMatchApiSchema('SpaceResponse');
      const before = await count();
      const lookalike = await api(t, a.admin)
        .post(path('/spaces'))
        .send({ name: 'Ｌｅｄｇｅｒ' })
        .expect(409);
      expect(lookalike.body).toMatchApiSchema('ErrorResponse');
      expect(lookalike.body.error.type).toBe('conflict');
      for (const name of ['Ledger\u200b', 'Led\u200cger', '\u200eLedger', 'Ledger\u2060']) {
        const res = await api(t, a.admin).post(path('/spaces')).send({ name }).expect(400);
        expect(res.body).toMatchApiSchema('ErrorResponse');
        expect(res.body.error).toEqual({
          type: 'invalid_request_error',
          message: expect.stringMatching(
            /^name: must not contain U\+[0-9A-F]{4}, an? (invisible|bidirectional control) character/,
          ),
        });
      }
      expect(await count()).toBe(before);
    });

    it('refuses members of another workspace and foreign spaces', async () => {
      const res = await api(t, a.admin)
        .post(path('/spaces'))
        .send({ name: 'Mixed', memberIds: [b.admin.user.sId] })
        .expect(400);
      expect(res.body.error.message).toContain(b.admin.user.sId);
      const foreign = (await api(t, b.admin).get(`/api/w/${b.workspace.sId}/spaces`).expect(200)).body
        .spaces[0].sId;
      const notFound = await api(t, a.admin)
        .post(path(`/spaces/${foreign}/members/${user.user.sId}`))
        .expect(404);
      expect(notFound.body.error.type).toBe('space_not_found');
    });

    it('keeps the members of the global space fixed', async () => {
      const global = (await api(t, a.admin).get(path('/spaces')).expect(200)).body.spaces[0].sId;
      await api(t, a.admin)
        .delete(path(`/spaces/${global}/members/${user.user.sId}`))
        .expect(400);
    });
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { SCOPES } from 'src/platform/auth/scopes';
import { ApiOperation, apiOperations, collectIds, fillPath } from 'test/support/api-operations';
import { apiSchemaValidator } from 'test/support/api-document';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import { Actor, World, WorkspaceFixture, api } from 'test/support/world';
import { PathValues, seedWorkspaceResources } from 'test/support/workspace-resources';

interface Expectation {
  status: number;
  type: string;
}

interface Probe {
  operation: ApiOperation;
  /** What the probe sends, in the failure report. */
  variant: string;
  authorization?: string;
  expected: Expectation;
}

/**
 * Every operation of the OpenAPI document that needs a key, asked by everyone who must be turned
 * away: generated from the document, so a route added later is covered without touching this file.
 */
describe('isolation matrix', () => {
  let t: TestApp;
  let world: World;
  let a: WorkspaceFixture;
  let b: WorkspaceFixture;
  let paths: PathValues;
  let operations: ApiOperation[];
  let revoked: Actor;
  let plainUser: Actor;
  /** sIds of workspace B that no answer about workspace A may contain. */
  let foreignIds: string[];
  /** One key of A's admin per set of required scopes, holding every scope but those. */
  const narrowKeys = new Map<string, Actor>();

  const bearer = (actor: { secret: string }) => `Bearer ${actor.secret}`;

  /** Answers with an event stream, which stays open until the idle timeout. */
  const streams = (op: ApiOperation) =>
    Object.values(op.operation.responses ?? {}).some(
      (response) =>
        response !== undefined && 'content' in response && 'text/event-stream' in (response.content ?? {}),
    );

  /**
   * GET every listable route of a workspace with its admin key, and keep the ids the answers name.
   * Not the event streams: opened without a Last-Event-ID they only send new events, so they name
   * nothing here, and the request would wait for the idle timeout (the probes below still ask them).
   */
  const harvestIds = async (fixture: WorkspaceFixture, values: PathValues) => {
    const ids = collectIds(values);
    for (const id of [fixture.workspace.sId, fixture.admin.user.sId, fixture.admin.keyId]) ids.add(id);
    const reads = operations.filter((op) => op.method === 'get' && !op.isPublic && !streams(op));
    const answers = await Promise.all(
      reads.map((op) => api(t, fixture.admin).get(fillPath(op.path, values))),
    );
    for (const res of answers) collectIds(res.body, ids);
    return ids;
  };

  beforeAll(async () => {
    t = await createTestApp();
    world = new World(t);
    [a, b] = await Promise.all([world.workspace(), world.workspace()]);
    operations = apiOperations(t.document);
    const [pathsA, pathsB] = await Promise.all([
      seedWorkspaceResources(t, world, a),
      seedWorkspaceResources(t, world, b),
    ]);
    paths = pathsA;
    // A global agent of B has the same name as A's, never the same sId: subtracting A's ids only
    // drops values that are not identifiers of B (shared constants).
    const [idsA, idsB] = await Promise.all([harvestIds(a, pathsA), harvestIds(b, pathsB)]);
    foreignIds = [...idsB].filter((id) => !idsA.has(id));
    expect(foreignIds.length).toBeGreaterThan(10);

    revoked = await world.key(a.admin);
    await api(t, a.admin).delete(`/api/w/${a.workspace.sId}/keys/${revoked.keyId}`).expect(200);
    plainUser = await world.member(a.workspace, 'user');
    for (const op of operations) {
      const id = [...op.requiredScopes].sort().join(' ');
      if (op.requiredScopes.length === 0 || narrowKeys.has(id)) continue;
      const scopes = SCOPES.filter((scope) => !op.requiredScopes.includes(scope));
      narrowKeys.set(id, await world.key(a.admin, scopes));
    }
  });
  afterAll(() => t.close());

  const guarded = () => operations.filter((op) => !op.isPublic);

  /** Sends every probe at once and lists each answer that is not exactly the expected envelope. */
  const run = async (probes: Probe[]) => {
    expect(probes.length).toBeGreaterThan(0);
    const validEnvelope = apiSchemaValidator('ErrorResponse');
    const failures = await Promise.all(
      probes.map(async ({ operation, variant, authorization, expected }) => {
        let test = request(t.http)[operation.method](fillPath(operation.path, paths));
        if (authorization !== undefined) test = test.set('Authorization', authorization);
        const res = await test;
        const text = res.text ?? '';
        const problems: string[] = [];
        const body = res.body as { error?: { type?: unknown; message?: unknown } } | undefined;
        if (res.status !== expected.status)
          problems.push(`status ${res.status}, expected ${expected.status}`);
        if (body?.error?.type !== expected.type) problems.push(`type ${String(body?.error?.type)}`);
        if (!validEnvelope(body) || Object.keys(body ?? {}).length !== 1)
          problems.push('not the error envelope');
        const leaked = foreignIds.filter((id) => text.includes(id));
        if (leaked.length > 0) problems.push(`names workspace B's ${leaked.join(', ')}`);
        return problems.length === 0
          ? []
          : [`${operation.name} (${variant}): ${problems.join('; ')} — ${text.slice(0, 300)}`];
      }),
    );
    expect(failures.flat()).toEqual([]);
  };

  it('covers every route of the document', () => {
    expect(guarded().length).toBeGreaterThan(30);
    const open = operations.filter((op) => op.isPublic).map((op) => op.name);
    expect(open).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz']));
  });

  it('answers a request without a key with 401 missing_authorization_header_error', async () => {
    await run(
      guarded().map((operation) => ({
        operation,
        variant: 'no Authorization header',
        expected: { status: 401, type: 'missing_authorization_header_error' },
      })),
    );
  });

  it('answers a malformed Authorization header with 401 malformed_authorization_header_error', async () => {
    const headers = [`Basic ${Buffer.from(`x:${a.admin.secret}`).toString('base64')}`, 'Bearer', 'Bearer '];
    await run(
      guarded().flatMap((operation) =>
        headers.map((authorization) => ({
          operation,
          variant: `Authorization: ${authorization.slice(0, 12)}`,
          authorization,
          expected: { status: 401, type: 'malformed_authorization_header_error' },
        })),
      ),
    );
  });

  it('answers a revoked key with 401 invalid_api_key_error', async () => {
    await run(
      guarded().map((operation) => ({
        operation,
        variant: 'revoked key',
        authorization: bearer(revoked),
        expected: { status: 401, type: 'invalid_api_key_error' },
      })),
    );
  });

  it("answers workspace B's key on workspace A's paths with 401 workspace_auth_error", async () => {
    await run(
      guarded().map((operation) => ({
        operation,
        variant: "workspace B's admin key",
        authorization: bearer(b.admin),
        expected: { status: 401, type: 'workspace_auth_error' },
      })),
    );
  });

  it("answers an admin key lacking the route's scopes with 403 insufficient_key_scope", async () => {
    await run(
      guarded()
        .filter((op) => op.requiredScopes.length > 0)
        .map((operation) => ({
          operation,
          variant: `key without ${operation.requiredScopes.join(', ')}`,
          authorization: bearer(narrowKeys.get([...operation.requiredScopes].sort().join(' '))!),
          expected: { status: 403, type: 'insufficient_key_scope' },
        })),
    );
  });

  it('answers a plain user with every scope on a route that needs a role with 403 workspace_auth_error', async () => {
    await run(
      guarded()
        .filter((op) => op.requiredRoles.length > 0 && !op.requiredRoles.includes('user'))
        .map((operation) => ({
          operation,
          variant: `user member, route needs ${operation.requiredRoles.join(' or ')}`,
          authorization: bearer(plainUser),
          expected: { status: 403, type: 'workspace_auth_error' },
        })),
    );
  });
});

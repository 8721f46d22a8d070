import type { ValidateFunction } from 'ajv';
import type { ParameterObject, ReferenceObject, RequestBodyObject } from '@nestjs/swagger';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { ApiOperation, apiOperations, fillPath } from 'test/support/api-operations';
import { apiSchemaValidator, readTestApiDocument } from 'test/support/api-document';
import { expect } from 'test/support/expect';
import {
  Mutation,
  QueryMutation,
  RawTwist,
  Schema,
  Schemas,
  applyMutation,
  applyQueryMutation,
  applyRawTwist,
  contentType,
  encodeQuery,
  mutation,
  preview,
  queryMutation,
  queryValue,
  rawTwist,
  schemaValue,
  toJsonText,
} from 'test/support/fuzz';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';
import { seedWorkspaceResources } from 'test/support/workspace-resources';

/** Fixed so a failure replays; FUZZ_SEED and FUZZ_RUNS explore further on demand. */
const SEED = Number(process.env.FUZZ_SEED ?? 1_105_011);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

/**
 * Tables that hold no data of the API; the rate limit counters count every authenticated request,
 * refused or not, and are written by a timer between requests.
 */
const UNCOUNTED_TABLES = ['migrations', 'rate_limit_counters'];

class BodyCase {
  constructor(
    readonly base: unknown,
    readonly mutations: Mutation[],
    readonly contentType: string,
    readonly twist: RawTwist | null,
  ) {}

  body(): unknown {
    return this.mutations.reduce(applyMutation, this.base);
  }

  /** The bytes on the wire; undefined sends no body at all. */
  payload(): string | Buffer | undefined {
    const text = toJsonText(this.body());
    if (text === undefined || this.twist === null) return text;
    return applyRawTwist(text, this.twist);
  }

  [fc.toStringMethod](): string {
    const twist = this.twist ? ` then ${JSON.stringify(this.twist)}` : '';
    return `${this.contentType} ${preview(this.body())}${twist}`;
  }
}

class QueryCase {
  constructor(
    readonly base: [string, string][],
    readonly mutations: QueryMutation[],
  ) {}

  query(): string {
    const encoded = this.base.map(([name, value]): [string, string] => [
      encodeQuery(name),
      encodeQuery(value),
    ]);
    const pairs = this.mutations.reduce(applyQueryMutation, encoded);
    return pairs.map(([name, value]) => `${name}=${value}`).join('&');
  }

  [fc.toStringMethod](): string {
    const query = this.query();
    return query.length > 300 ? `?${query.slice(0, 150)}…(${query.length} chars)` : `?${query}`;
  }
}

const isReference = (value: object): value is ReferenceObject => '$ref' in value;

// Jest declares tests synchronously: the routes come from the document the global setup wrote.
const document = readTestApiDocument();
const schemas = (document.components?.schemas ?? {}) as Schemas;

let t: TestApp;
let a: WorkspaceFixture;
let paths: Record<string, string>;
/** Filled once the resources exist; the arbitraries read it when they draw. */
const hints: { ids: string[] } = { ids: [] };
let tables: string[];
let countAll: string;
let validEnvelope: ValidateFunction;

beforeAll(async () => {
  t = await createTestApp();
  const world = new World(t);
  a = await world.workspace();
  validEnvelope = apiSchemaValidator('ErrorResponse');
  paths = await seedWorkspaceResources(t, world, a);
  // Not the agent: a body mentioning a real agent would start a run that writes in the
  // background, between the counts of later requests.
  hints.ids.push(
    ...Object.entries(paths)
      .filter(([name]) => name !== 'sId')
      .map(([, id]) => id),
  );
  tables = (
    await t.dataSource.query<{ name: string }[]>(
      `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    )
  )
    .map((row) => row.name)
    .filter((name) => !UNCOUNTED_TABLES.includes(name));
  countAll = `SELECT json_build_object(${tables
    .map((name) => `'${name}', (SELECT count(*) FROM "${name}")`)
    .join(', ')}) AS counts`;
});

/**
 * Every JSON route and every GET with query parameters, sent bodies and query strings derived
 * from the OpenAPI document then mutated, with the workspace admin's key so they reach
 * validation. Tests are declared once the app exists: the routes come from its document.
 */
describe('fuzzing the JSON routes', () => {
  afterAll(() => t.close());

  /** Exact row counts of every table, in one statement. */
  const counts = async () =>
    (await t.dataSource.query<{ counts: Record<string, number> }[]>(countAll))[0].counts;

  /** Streams never end by themselves; the fuzzer sends requests that must answer. */
  const answersOnce = (op: ApiOperation) =>
    !Object.values(op.operation.responses ?? {}).some(
      (response) =>
        response !== undefined && !isReference(response) && 'text/event-stream' in (response.content ?? {}),
    );

  /**
   * One request between two counts: never a 5xx; a rejection carries exactly the envelope and
   * leaves every table as it was. Accepted requests may write (each request is counted on its
   * own, so they never mask a rejected one).
   */
  const check = async (
    op: ApiOperation,
    tally: Map<number, number>,
    send: (test: request.Test) => request.Test,
  ) => {
    const url = fillPath(op.path, paths);
    const before = await counts();
    const res = await send(
      request(t.http)[op.method](url).set('Authorization', `Bearer ${a.admin.secret}`).timeout(30_000),
    );
    tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
    const answer = `${res.status} ${(res.text ?? '').slice(0, 300)}`;
    expect({ serverError: res.status >= 500, answer }).toEqual({ serverError: false, answer });
    if (res.status < 400) return;
    expect({ envelope: validEnvelope(res.body), answer }).toEqual({ envelope: true, answer });
    expect(res.body).toMatchApiSchema('ErrorResponse');
    expect(await counts()).toEqual(before);
  };

  const jsonRoutes = apiOperations(document).filter((op) => {
    const body = op.operation.requestBody;
    return body !== undefined && !isReference(body) && 'application/json' in body.content;
  });
  const queryRoutes = apiOperations(document).filter(
    (op) =>
      op.method === 'get' &&
      answersOnce(op) &&
      (op.operation.parameters ?? []).some((p) => !isReference(p) && p.in === 'query'),
  );

  /** How far the cases reached, in the test output: only 400s would mean the bases are never valid. */
  const report = (op: ApiOperation, tally: Map<number, number>) =>
    console.info(
      `${op.name}: answers: ${[...tally]
        .sort(([x], [y]) => x - y)
        .map(([status, n]) => `${status}×${n}`)
        .join(', ')}`,
    );

  it('finds the routes to fuzz in the document', () => {
    expect(jsonRoutes.length).toBeGreaterThan(15);
    expect(queryRoutes.length).toBeGreaterThan(2);
    expect(tables).toEqual(expect.arrayContaining(['users', 'conversations', 'agent_configurations']));
  });

  for (const op of jsonRoutes) {
    it(`body of ${op.name}`, async () => {
      const tally = new Map<number, number>();
      const schema = ((op.operation.requestBody as RequestBodyObject).content['application/json'].schema ??
        {}) as Schema;
      const cases = fc
        .record({
          base: schemaValue(schema, schemas, hints),
          mutations: fc.array(mutation, { maxLength: 3 }),
          contentType,
          twist: fc.option(rawTwist, { freq: 12 }),
        })
        .map(({ base, mutations, contentType, twist }) => new BodyCase(base, mutations, contentType, twist));
      await fc.assert(
        fc.asyncProperty(cases, (body) =>
          check(op, tally, (test) => {
            const payload = body.payload();
            const typed = test.set('Content-Type', body.contentType);
            // The bytes as built: superagent would serialize anything but a string as JSON.
            return payload === undefined ? typed : typed.serialize((bytes: string) => bytes).send(payload);
          }),
        ),
        { seed: SEED, numRuns: RUNS },
      );
      report(op, tally);
    });
  }

  for (const op of queryRoutes) {
    it(`query string of ${op.name}`, async () => {
      const tally = new Map<number, number>();
      const parameters = (op.operation.parameters ?? []).filter(
        (p): p is ParameterObject => !isReference(p) && p.in === 'query',
      );
      const base = fc
        .tuple(
          ...parameters.map((parameter) =>
            fc.option(
              queryValue(parameter, schemas, hints).map((value): [string, string] => [parameter.name, value]),
              { freq: 3 },
            ),
          ),
        )
        .map((pairs) => pairs.filter((pair): pair is [string, string] => pair !== null));
      const cases = fc
        .record({ base, mutations: fc.array(queryMutation, { maxLength: 3 }) })
        .map(({ base, mutations }) => new QueryCase(base, mutations));
      await fc.assert(
        fc.asyncProperty(cases, (query) => check(op, tally, (test) => test.query(query.query()))),
        { seed: SEED, numRuns: RUNS * 2 },
      );
      report(op, tally);
    });
  }

  it('still serves the workspace afterwards', async () => {
    await api(t, a.admin).get(`/api/w/${a.workspace.sId}/me`).expect(200);
  });
});

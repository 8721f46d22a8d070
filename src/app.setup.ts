import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { ApiExceptionFilter } from 'src/platform/errors/api-exception.filter';
import { answerClientError, answerRoutingError } from 'src/platform/http/client-errors';
import { JSON_BODY_LIMIT_BYTES, registerBodyParsers } from 'src/platform/http/json-body-parser';
import { refuseNulInUrl } from 'src/platform/http/storable-text';
import { createValidationPipe } from 'src/platform/http/validation';
import { echoRequestId, requestId } from 'src/platform/logging/request-id';

export const API_VERSION = '1.0.2';

/** Options every Nest application of this service is created with (the body parser is ours). */
export const NEST_APP_OPTIONS: NestApplicationOptions = { bodyParser: false, bufferLogs: true };

/** Node's limit on the request line and headers, which also bounds any one path parameter. */
const MAX_HEADER_BYTES = 16 * 1024;

/** Fastify under Nest: its routing and replies cost a fraction of Express's on every request. */
export function createHttpAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // Node's own default, which Fastify turns off: a request must arrive whole within 5 minutes.
    requestTimeout: 300_000,
    clientErrorHandler: answerClientError,
    genReqId: requestId,
    frameworkErrors: answerRoutingError,
    // A request that still arrives while the server closes is served (as Express did), not
    // answered with Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_HEADER_BYTES },
  });
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Workspace Agent API')
    .setDescription(
      'Workspace-scoped agents, conversations, live conversation events, files, wake-ups, feedback and data source views.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'An API key: `sk-…`' })
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Everything main.ts and the tests share: logging, body parsing, validation, errors, OpenAPI. */
export function configureApp(app: NestFastifyApplication): OpenAPIObject {
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', echoRequestId);
  fastify.addHook('onRequest', refuseNulInUrl);
  registerBodyParsers(fastify);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
  return document;
}

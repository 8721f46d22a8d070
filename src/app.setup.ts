import type { INestApplication, NestApplicationOptions } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { Logger } from 'nestjs-pino';
import { ApiExceptionFilter } from 'src/platform/errors/api-exception.filter';
import { answerClientErrorsWithEnvelope } from 'src/platform/http/client-errors';
import { jsonBodyParser } from 'src/platform/http/json-body-parser';
import { refuseNulInUrl } from 'src/platform/http/storable-text';
import { createValidationPipe } from 'src/platform/http/validation';

export const API_VERSION = '1.0.2';

/** Options every Nest application of this service is created with (the body parser is ours). */
export const NEST_APP_OPTIONS: NestApplicationOptions = { bodyParser: false, bufferLogs: true };

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
export function configureApp(app: INestApplication): OpenAPIObject {
  app.useLogger(app.get(Logger));
  const express = app.getHttpAdapter().getInstance() as Express;
  express.disable('x-powered-by');
  // Responses are per caller and change with every event; hashing each body for an ETag buys nothing.
  express.disable('etag');
  answerClientErrorsWithEnvelope(app.getHttpServer() as Server);
  app.use(refuseNulInUrl());
  app.use(jsonBodyParser());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
  return document;
}

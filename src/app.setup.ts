import { StreamableFile, type INestApplication, type NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiExceptionFilter } from 'src/platform/errors/api-exception.filter';
import { familyOperationId } from 'src/platform/http/api-families';
import { answerClientErrorsWithEnvelope, refusedMalformedUrl } from 'src/platform/http/client-errors';
import { pendingBody } from 'src/platform/http/json-body-parser';
import { sendJson } from 'src/platform/http/send-json';
import { createValidationPipe } from 'src/platform/http/validation';
import { AccessLog, ServiceLogger } from 'src/platform/logging/app-logger';
import { OperatorLog } from 'src/platform/logging/operator-log';
import { reportCollector } from 'src/platform/observability/collector-metrics';
import { HttpMetrics } from 'src/platform/observability/http-metrics';
import { Metrics } from 'src/platform/observability/metrics';
import { METRICS_TOKEN_SCHEME } from 'src/platform/observability/metrics.controller';
import type { NodeMiddleware } from 'src/platform/observability/server-spans';
import type { Tracing } from 'src/platform/observability/tracing';

export const API_VERSION = '1.0.2';

/** Options every Nest application of this service is created with (the body parser is ours). */
export const NEST_APP_OPTIONS: NestApplicationOptions = { bodyParser: false, bufferLogs: true };

/**
 * Express under Nest, answering a route's JSON result straight on Node's response: Express's
 * `res.json` → `res.send` path (settings look-ups, charset parsing, freshness check) was the
 * largest share of a read's time in the edge.
 */
class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: ServerResponse, body: unknown, statusCode?: number): unknown {
    if (
      body !== null &&
      typeof body === 'object' &&
      !(body instanceof StreamableFile) &&
      !(body instanceof Error)
    ) {
      sendJson(response, statusCode ?? response.statusCode, body);
      return;
    }
    return super.reply(response, body, statusCode);
  }
}

export function createHttpAdapter(): ExpressAdapter {
  const adapter = new ApiExpressAdapter();
  const express = adapter.getInstance<NestExpressApplication>();
  express.disable('x-powered-by');
  // Responses are per caller and change with every event; hashing each body for an ETag buys nothing.
  express.disable('etag');
  // Node's querystring: no nested objects from `a[b]=c`, which no route takes.
  express.set('query parser', 'simple');
  return adapter;
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Workspace Agent API')
    .setDescription(
      'Workspace-scoped agents, conversations, live conversation events, files, wake-ups, feedback and data source views.',
    )
    .setVersion(API_VERSION)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk-…',
      description:
        "An API key of the path's workspace: `sk-…` (the CLI's `keys create`, or POST /api/w/{wId}/keys).",
    })
    // addBearerAuth would call it a JWT; the metrics token is an opaque string.
    .addSecurity(METRICS_TOKEN_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'The `METRICS_TOKEN` of the service (only `GET /metrics` takes it): an opaque string.',
    })
    .addTag(
      'agents',
      'Agent configurations: versioned, with a model, instructions and a toolset of MCP servers.',
    )
    .addTag(
      'conversations',
      "Conversations, their messages, the agents' answers and tool calls, and their event streams.",
    )
    .addTag('wake-ups', 'Scheduled re-invocations of an agent inside a conversation (one-shot or cron).')
    .addTag(
      'triggers',
      'Agents that start conversations by themselves, on a schedule or on a signed webhook delivery.',
    )
    .addTag('feedback', 'Thumbs up or down, with a comment, on agent messages.')
    .addTag('files', 'File records, their signed upload URL, and their content.')
    .addTag('data sources', 'Data sources of spaces and their views.')
    .addTag(
      'skills and tool servers',
      'Skills, the internal tool servers and the remote MCP servers shared to spaces.',
    )
    .addTag(
      'client-side MCP servers',
      "Tool servers a member's client (Dust's extension or CLI) lends to that member's runs, through long polls.",
    )
    .addTag('spaces', 'The global space and restricted spaces: who can access which data and tools.')
    .addTag('members', 'Who the key belongs to, and the members of the workspace with their roles.')
    .addTag('api keys', 'The API keys of the workspace (admins): create, list, revoke.')
    .addTag(
      'usage',
      'What agent runs cost (tokens, duration) by day, agent, user and model, and the monthly token budget (admins).',
    )
    .addTag('health', 'Liveness and readiness, without a key.')
    .build();
  return SwaggerModule.createDocument(app, config, { operationIdFactory: familyOperationId });
}

/**
 * Everything main.ts and the tests share: logging, body parsing, validation, errors, OpenAPI; and,
 * when tracing is on, each request's server span around all of it.
 */
export function configureApp(app: NestExpressApplication, tracing: Tracing | null = null): OpenAPIObject {
  app.useLogger(app.get(ServiceLogger));
  const accessLog = app.get(AccessLog).middleware;
  const httpMetrics = app.get(HttpMetrics);
  answerClientErrorsWithEnvelope(app.getHttpServer());
  // One plain Node middleware (each router layer costs every request): request id, access log,
  // request metrics, URL checks, and the body left pending until a route that takes one reads it.
  const edge: NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    accessLog(req, res);
    httpMetrics.track(req, res);
    if (refusedMalformedUrl(req, res)) return;
    pendingBody(req);
    next();
  };
  // Off, a request's path holds no trace of tracing, not even a check.
  app.use(tracing ? tracing.aroundRequests(edge) : edge);
  if (tracing) reportCollector(tracing.collector, app.get(Metrics), app.get(OperatorLog));
  app.useGlobalPipes(createValidationPipe((token) => app.get(token)));
  app.useGlobalFilters(new ApiExceptionFilter());
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, {
    jsonDocumentUrl: 'api/openapi.json',
    yamlDocumentUrl: 'api/openapi.yaml',
  });
  return document;
}

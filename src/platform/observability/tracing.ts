import type { Span } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { routeTemplateOf } from 'src/platform/http/route-template';

/** Traces, once started: flushed and stopped when the process stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/** Probes and scrapes: a span each, every few seconds, would say nothing about the service's work. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

export function isUntracedRequest(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  const query = url.indexOf('?');
  return UNTRACED_PATHS.has(query === -1 ? url : url.slice(0, query));
}

/**
 * Names a server span after the route the request matched (`GET /api/w/:wId/files/:fileId`), with
 * `http.route`, once it is answered: what Express's instrumentation did, without its span per
 * request handler and its patching of every router layer.
 */
export function nameAfterRoute(span: Span, request: ClientRequest | IncomingMessage): void {
  // An outgoing call's request (a ClientRequest) has no headers field and no route.
  if (!('headers' in request)) return;
  const route = routeTemplateOf(request);
  if (route === undefined) return;
  span.setAttribute('http.route', route);
  span.updateName(`${request.method ?? 'GET'} ${route}`);
}

/**
 * Starts OpenTelemetry with the HTTP and pg instrumentations. They patch modules as they are
 * loaded, so this runs before Nest, Express or pg is required. Spans go over OTLP (the SDK reads
 * `OTEL_EXPORTER_OTLP_*`), or to the processors given (a test's in-memory exporter). Only traces:
 * metrics are Prometheus's (`/metrics`), logs are pino's.
 */
export function startTracing(spanProcessors?: SpanProcessor[]): Tracing {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'workspace-agent-api',
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: isUntracedRequest,
        applyCustomAttributesOnSpan: nameAfterRoute,
      }),
      // Connecting and pooling are not the request's work; the queries are. A query outside any
      // span (the schedulers' polls, heartbeats) would be a trace of its own every few seconds.
      new PgInstrumentation({ ignoreConnectSpans: true, requireParentSpan: true }),
    ],
    ...(spanProcessors ? { spanProcessors } : {}),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise nothing is started, and spans are no-ops. */
export function startTracingFromEnvironment(env: NodeJS.ProcessEnv): Tracing | null {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? startTracing() : null;
}

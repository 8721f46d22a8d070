import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { createRequire } from 'node:module';

/** Traces, once started: flushed and stopped when the process stops. */
export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry with the HTTP, Express and pg instrumentations. They patch modules as they
 * are loaded, so this runs before Nest, Express or pg is required. Spans go over OTLP (the SDK
 * reads `OTEL_EXPORTER_OTLP_*`), or to the processors given (a test's in-memory exporter). Only
 * traces: metrics are Prometheus's (`/metrics`), logs are pino's.
 */
export function startTracing(spanProcessors?: SpanProcessor[]): Tracing {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'workspace-agent-api',
    instrumentations: [
      new HttpInstrumentation(),
      // The route's handler, not each of the dozen middlewares every request passes: a span per
      // layer would cost more than the request's own work on a fast read.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Connecting and pooling are not the request's work; the queries are. A query outside any
      // span (the schedulers' polls, heartbeats) would be a trace of its own every few seconds.
      new PgInstrumentation({ ignoreConnectSpans: true, requireParentSpan: true }),
    ],
    ...(spanProcessors ? { spanProcessors } : {}),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // Nest's Express adapter is an ES module, and its `import express` passes by the require hook the
  // instrumentation patches through. Required here once the hook is set, Express is patched in
  // place, and that import gets the same patched module.
  createRequire(__filename)('express');
  return sdk;
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise nothing is started, and spans are no-ops. */
export function startTracingFromEnvironment(env: NodeJS.ProcessEnv): Tracing | null {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? startTracing() : null;
}

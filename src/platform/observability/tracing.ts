import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';

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
      new ExpressInstrumentation(),
      // Connecting and pooling are not the request's work; the queries are.
      new PgInstrumentation({ ignoreConnectSpans: true }),
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

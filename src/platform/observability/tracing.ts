import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace';
import { tracePgQueries } from 'src/platform/observability/pg-spans';
import { inServerSpans, type NodeMiddleware } from 'src/platform/observability/server-spans';

/** Traces, once started: flushed and stopped when the process stops. */
export interface Tracing {
  /** `middleware`, run inside each request's server span (configureApp's edge). */
  aroundRequests(middleware: NodeMiddleware): NodeMiddleware;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry with the HTTP instrumentation, which patches modules as they are loaded, so
 * this runs before Nest is required. It traces outgoing calls only (a client span, and
 * `traceparent` sent on); the server span of a request is ours (`aroundRequests`), and so are the
 * spans of pg's queries (`tracePgQueries`: the pg instrumentation alone cost endpoint 11 about 15 %
 * of its throughput). Spans go over OTLP (the SDK reads `OTEL_EXPORTER_OTLP_*`), or to the
 * processors given (a test's in-memory exporter). Only traces: metrics are Prometheus's
 * (`/metrics`), logs are pino's.
 */
export function startTracing(spanProcessors?: SpanProcessor[]): Tracing {
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME ?? 'workspace-agent-api',
    instrumentations: [new HttpInstrumentation({ disableIncomingRequestInstrumentation: true })],
    ...(spanProcessors ? { spanProcessors } : {}),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const untracePg = tracePgQueries(trace.getTracer('workspace-agent-api/pg'));
  return {
    aroundRequests: inServerSpans,
    shutdown: () => {
      untracePg();
      return sdk.shutdown();
    },
  };
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise nothing is started, and spans are no-ops. */
export function startTracingFromEnvironment(env: NodeJS.ProcessEnv): Tracing | null {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? startTracing() : null;
}

import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter as OtlpGrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { CollectorAwareSampler, CollectorWatch } from 'src/platform/observability/collector-watch';
import { tracePgQueries } from 'src/platform/observability/pg-spans';
import { inServerSpans, type NodeMiddleware } from 'src/platform/observability/server-spans';

/** Traces, once started: flushed and stopped when the process stops. */
export interface Tracing {
  /** `middleware`, run inside each request's server span (configureApp's edge). */
  aroundRequests(middleware: NodeMiddleware): NodeMiddleware;
  /** Whether the collector takes the spans sent to it (new traces are not recorded while it does not). */
  readonly collector: CollectorWatch;
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry with the HTTP instrumentation, which patches modules as they are loaded, so
 * this runs before Nest is required. It traces outgoing calls only (a client span, and
 * `traceparent` sent on); the server span of a request is ours (`aroundRequests`), and so are the
 * spans of pg's queries (`tracePgQueries`: the pg instrumentation alone cost endpoint 11 about 15 %
 * of its throughput). Spans go over OTLP, in the batches the SDK's processor makes (`OTEL_BSP_*`),
 * to the collector the exporter reads from `OTEL_EXPORTER_OTLP_*`; while that collector does not
 * take them, new traces are not recorded (`CollectorWatch`). Only traces: metrics are
 * Prometheus's (`/metrics`), logs are pino's.
 */
export function startTracing(env: NodeJS.ProcessEnv): Tracing {
  const collector = new CollectorWatch();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'workspace-agent-api',
    instrumentations: [new HttpInstrumentation({ disableIncomingRequestInstrumentation: true })],
    traceExporter: collector.watching(otlpExporter(env)),
    sampler: new CollectorAwareSampler(samplerOf(env), collector),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const untracePg = tracePgQueries(trace.getTracer('workspace-agent-api/pg'));
  return {
    aroundRequests: inServerSpans,
    collector,
    shutdown: () => {
      untracePg();
      return sdk.shutdown();
    },
  };
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise nothing is started, and spans are no-ops. */
export function startTracingFromEnvironment(env: NodeJS.ProcessEnv): Tracing | null {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? startTracing(env) : null;
}

const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/** The OTLP exporter of the protocol the standard variables name (http/protobuf unless told). */
function otlpExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol =
    (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL)?.trim() || 'http/protobuf';
  switch (protocol) {
    case 'http/protobuf':
      return new OtlpProtobufTraceExporter();
    case 'http/json':
      return new OtlpJsonTraceExporter();
    case 'grpc':
      return new OtlpGrpcTraceExporter();
    default:
      throw new Error(
        `OTEL_EXPORTER_OTLP_PROTOCOL: "${protocol}" is not one of ${OTLP_PROTOCOLS.join(', ')}`,
      );
  }
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** The sampler `OTEL_TRACES_SAMPLER` names, as the SDK reads it (parent-based, every trace, unless told). */
function samplerOf(env: NodeJS.ProcessEnv): Sampler {
  const name = env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on';
  const ratio = () => {
    const given = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const value = given ? Number(given) : 1;
    if (!(value >= 0 && value <= 1)) {
      throw new Error(`OTEL_TRACES_SAMPLER_ARG: ${value} is not a ratio between 0 and 1`);
    }
    return new TraceIdRatioBasedSampler(value);
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratio() });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER: "${name}" is not one of ${SAMPLERS.join(', ')}`);
  }
}

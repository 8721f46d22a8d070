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
import { fetchInstrumentation } from 'src/platform/observability/fetch-spans';
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
 * `traceparent` sent on), as the fetch instrumentation does undici's (`fetchInstrumentation`); the
 * server span of a request is ours (`aroundRequests`), and so are the spans of pg's queries
 * (`tracePgQueries`: the pg instrumentation alone cost endpoint 11 about 15 % of its throughput).
 * Spans go over OTLP, in the batches the SDK's processor makes (`OTEL_BSP_*`), to the collector
 * the exporter reads from `OTEL_EXPORTER_OTLP_*`; while that collector does not take them, new
 * traces are not recorded (`CollectorWatch`). Only traces: metrics are Prometheus's (`/metrics`),
 * logs are pino's.
 */
export function startTracing(env: NodeJS.ProcessEnv): Tracing {
  const collector = new CollectorWatch();
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? 'workspace-agent-api',
    instrumentations: [
      new HttpInstrumentation({ disableIncomingRequestInstrumentation: true }),
      fetchInstrumentation(),
    ],
    traceExporter: collector.watching(otlpExporter(env)),
    sampler: new CollectorAwareSampler(samplerOf(env), collector),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const unwatchRequests = collector.watchExporterRequests();
  const untracePg = tracePgQueries(trace.getTracer('workspace-agent-api/pg'));
  return {
    aroundRequests: inServerSpans,
    collector,
    shutdown: () => {
      unwatchRequests();
      untracePg();
      return sdk.shutdown();
    },
  };
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; otherwise nothing is started, and spans are no-ops. */
export function startTracingFromEnvironment(env: NodeJS.ProcessEnv): Tracing | null {
  return env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? startTracing(env) : null;
}

/** The OTLP exporters, by the protocol the standard variables name. */
const OTLP_EXPORTERS: Record<string, () => SpanExporter> = {
  'http/protobuf': () => new OtlpProtobufTraceExporter(),
  'http/json': () => new OtlpJsonTraceExporter(),
  grpc: () => new OtlpGrpcTraceExporter(),
};

/** The exporter of `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `OTEL_EXPORTER_OTLP_PROTOCOL` (http/protobuf unless told). */
function otlpExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const variable =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL !== undefined
      ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
      : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  return chosen(variable, env[variable]?.trim() || 'http/protobuf', OTLP_EXPORTERS);
}

/** The sampler `OTEL_TRACES_SAMPLER` names, as the SDK reads it (parent-based, every trace, unless told). */
function samplerOf(env: NodeJS.ProcessEnv): Sampler {
  const ratio = () => {
    const given = env.OTEL_TRACES_SAMPLER_ARG?.trim();
    const value = given ? Number(given) : 1;
    if (!(value >= 0 && value <= 1)) {
      throw new Error(`OTEL_TRACES_SAMPLER_ARG: ${value} is not a ratio between 0 and 1`);
    }
    return new TraceIdRatioBasedSampler(value);
  };
  const samplers: Record<string, () => Sampler> = {
    always_on: () => new AlwaysOnSampler(),
    always_off: () => new AlwaysOffSampler(),
    traceidratio: ratio,
    parentbased_always_on: () => new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    parentbased_always_off: () => new ParentBasedSampler({ root: new AlwaysOffSampler() }),
    parentbased_traceidratio: () => new ParentBasedSampler({ root: ratio() }),
  };
  return chosen('OTEL_TRACES_SAMPLER', env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on', samplers);
}

/** What `name` makes among `options`; a name it does not know stops the start, `variable` named. */
function chosen<T>(variable: string, name: string, options: Record<string, () => T>): T {
  if (!Object.hasOwn(options, name)) {
    throw new Error(`${variable}: "${name}" is not one of ${Object.keys(options).join(', ')}`);
  }
  return options[name]();
}

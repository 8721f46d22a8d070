import {
  context,
  isSpanContextValid,
  ROOT_CONTEXT,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type SpanKind,
} from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import {
  SamplingDecision,
  type Sampler,
  type SamplingResult,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';

/** How the OTLP exporters name themselves in their requests' `User-Agent`. */
const EXPORTER_USER_AGENT = 'OTel-OTLP-Exporter-JavaScript/';

/** The statuses the exporter retries a batch after (the OTLP specification's): a refusal for now. */
const isRefusal = (status: number | undefined) =>
  status === 429 || status === 502 || status === 503 || status === 504;

const isExporters = (request: ClientRequest) =>
  String(request.getHeader('user-agent') ?? '').includes(EXPORTER_USER_AGENT);

/** What the watch says when the collector's state changes: it stopped taking spans (and why), or took them again. */
export type CollectorChange = { reachable: false; error: Error | undefined } | { reachable: true };

/**
 * Whether the collector takes the spans sent to it, as the outcome of the last export (or of an
 * attempt of it) says. While it does not, every span made is dropped: the batch processor sends
 * one batch at a time, which the exporter retries for seconds, and drops the spans that arrive
 * once its queue is full. So new traces are not recorded then, but for one a probe interval: the
 * exporter keeps trying with it, and the first batch the collector takes brings every trace back.
 */
export class CollectorWatch {
  private reachable = true;
  private nextProbeAt = 0;
  private shed = 0;
  private readonly listeners: ((change: CollectorChange) => void)[] = [];

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly probeIntervalMs = 1000,
  ) {}

  /** `exporter`, reporting each export's outcome to this watch. */
  watching(exporter: SpanExporter): SpanExporter {
    return {
      export: (spans, resultCallback) =>
        exporter.export(spans, (result) => {
          this.record(result);
          resultCallback(result);
        }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
  }

  /**
   * Learns of a refused attempt when it happens, not when the exporter gives up its retries (about
   * 8 s later): an HTTP request of the OTLP exporter that fails on a fresh connection (refused,
   * unreachable, timed out), or is answered with a status the exporter retries, marks the
   * collector as not taking spans at once. Node's HTTP
   * client publishes both on its diagnostics channels; gRPC's transport is not seen, and is known
   * by its exports' outcomes only. Returns what stops watching.
   */
  watchExporterRequests(): () => void {
    const failed = (message: unknown) => {
      const { request, error } = message as { request: ClientRequest; error: Error };
      // A kept-alive socket the collector closed fails once and is retried on a fresh one: not a refusal.
      if (isExporters(request) && !request.reusedSocket)
        this.record({ code: ExportResultCode.FAILED, error });
    };
    const answered = (message: unknown) => {
      const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
      if (isExporters(request) && isRefusal(response.statusCode)) {
        const error = new Error(`The collector answered ${response.statusCode}`);
        this.record({ code: ExportResultCode.FAILED, error });
      }
    };
    subscribe('http.client.request.error', failed);
    subscribe('http.client.response.finish', answered);
    return () => {
      unsubscribe('http.client.request.error', failed);
      unsubscribe('http.client.response.finish', answered);
    };
  }

  /** Whether a new trace (a root, or one continued from a caller) is recorded; counted when it is not. */
  recordsNewTrace(): boolean {
    if (this.reachable) return true;
    const now = this.now();
    if (now >= this.nextProbeAt) {
      this.nextProbeAt = now + this.probeIntervalMs;
      return true;
    }
    this.shed += 1;
    return false;
  }

  get collectorReachable(): boolean {
    return this.reachable;
  }

  /** Traces not recorded because the collector was not taking spans, since the process started. */
  get tracesShed(): number {
    return this.shed;
  }

  onChange(listener: (change: CollectorChange) => void): void {
    this.listeners.push(listener);
  }

  private record(result: ExportResult): void {
    const reachable = result.code === ExportResultCode.SUCCESS;
    if (reachable === this.reachable) return;
    this.reachable = reachable;
    // The batch that failed was the probe: the next one is due an interval from now.
    if (!reachable) this.nextProbeAt = this.now() + this.probeIntervalMs;
    const change: CollectorChange = reachable ? { reachable } : { reachable, error: result.error };
    // Outside the context of the request whose span happened to fill the batch.
    for (const listener of this.listeners) context.with(ROOT_CONTEXT, listener, undefined, change);
  }
}

/**
 * `sampler`, unless the collector is not taking spans: then a new trace is recorded only when the
 * watch admits it, and a span whose parent in this process was not recorded is not either (an
 * `always_on` sampler would record it, and the trace it belongs to is already lost).
 */
export class CollectorAwareSampler implements Sampler {
  constructor(
    private readonly sampler: Sampler,
    private readonly watch: CollectorWatch,
  ) {}

  shouldSample(
    parentContext: Context,
    traceId: string,
    spanName: string,
    spanKind: SpanKind,
    attributes: Attributes,
    links: Link[],
  ): SamplingResult {
    const parent = trace.getSpanContext(parentContext);
    const localParent = parent !== undefined && isSpanContextValid(parent) && parent.isRemote !== true;
    if (localParent) {
      const parentRecorded = (parent.traceFlags & TraceFlags.SAMPLED) !== 0;
      if (!parentRecorded && !this.watch.collectorReachable) return { decision: SamplingDecision.NOT_RECORD };
    } else if (!this.watch.recordsNewTrace()) {
      return { decision: SamplingDecision.NOT_RECORD };
    }
    return this.sampler.shouldSample(parentContext, traceId, spanName, spanKind, attributes, links);
  }

  toString(): string {
    return `CollectorAwareSampler{${this.sampler.toString()}}`;
  }
}

import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import {
  AlwaysOnSampler,
  ParentBasedSampler,
  SamplingDecision,
  type ReadableSpan,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import {
  CollectorAwareSampler,
  CollectorWatch,
  type CollectorChange,
} from 'src/platform/observability/collector-watch';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'test/support/expect';

/** An exporter whose next exports answer what the test says, as a collector would. */
class ScriptedExporter implements SpanExporter {
  answer: ExportResult = { code: ExportResultCode.SUCCESS };
  exported = 0;

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.exported += spans.length;
    resultCallback(this.answer);
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const refused: ExportResult = { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED') };
const taken: ExportResult = { code: ExportResultCode.SUCCESS };

function setUp() {
  let now = 0;
  const watch = new CollectorWatch(() => now, 1000);
  const collector = new ScriptedExporter();
  const exporter = watch.watching(collector);
  const changes: CollectorChange[] = [];
  watch.onChange((change) => changes.push(change));
  const exportOne = (answer: ExportResult) => {
    collector.answer = answer;
    let reported: ExportResult | undefined;
    exporter.export([{} as ReadableSpan], (result) => (reported = result));
    return reported;
  };
  return { watch, changes, exportOne, advance: (ms: number) => (now += ms) };
}

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

function withParent(flags: TraceFlags, isRemote = false): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: 'b7ad6b7169203331',
    traceFlags: flags,
    isRemote,
  });
}

describe('CollectorWatch', () => {
  it('records every new trace while the collector takes the spans', () => {
    const { watch, exportOne } = setUp();
    expect(exportOne(taken)).toEqual(taken);
    expect([watch.recordsNewTrace(), watch.recordsNewTrace(), watch.recordsNewTrace()]).toEqual([
      true,
      true,
      true,
    ]);
    expect(watch.tracesShed).toBe(0);
  });

  it('after a refused batch, records one new trace a probe interval and counts the others', () => {
    const { watch, changes, exportOne, advance } = setUp();
    // The exporter's caller still hears the failure.
    expect(exportOne(refused)).toEqual(refused);
    expect(watch.collectorReachable).toBe(false);
    expect(changes).toEqual([{ reachable: false, error: refused.error }]);

    expect([watch.recordsNewTrace(), watch.recordsNewTrace()]).toEqual([false, false]);
    advance(999);
    expect(watch.recordsNewTrace()).toBe(false);
    advance(1);
    expect([watch.recordsNewTrace(), watch.recordsNewTrace()]).toEqual([true, false]);
    advance(1000);
    expect(watch.recordsNewTrace()).toBe(true);
    expect(watch.tracesShed).toBe(4);
  });

  it('records every trace again once a batch is taken, and says so once', () => {
    const { watch, changes, exportOne } = setUp();
    exportOne(refused);
    exportOne(refused);
    expect(watch.recordsNewTrace()).toBe(false);
    exportOne(taken);
    exportOne(taken);
    expect(watch.collectorReachable).toBe(true);
    expect([watch.recordsNewTrace(), watch.recordsNewTrace()]).toEqual([true, true]);
    expect(changes).toEqual([{ reachable: false, error: refused.error }, { reachable: true }]);
    // What was shed stays counted.
    expect(watch.tracesShed).toBe(1);
  });
});

describe('CollectorAwareSampler', () => {
  const decide = (sampler: CollectorAwareSampler, parent: Context) =>
    sampler.shouldSample(parent, TRACE_ID, 'GET /api/w/:wId/me', SpanKind.SERVER, {}, []).decision;

  it("asks the configured sampler while the collector takes spans, whatever the parent's flags", () => {
    const { watch } = setUp();
    const sampler = new CollectorAwareSampler(new AlwaysOnSampler(), watch);
    expect(decide(sampler, ROOT_CONTEXT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(sampler, withParent(TraceFlags.NONE))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    const parentBased = new CollectorAwareSampler(
      new ParentBasedSampler({ root: new AlwaysOnSampler() }),
      watch,
    );
    expect(decide(parentBased, withParent(TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
  });

  it('while the collector refuses, records new traces only as probes, and a recorded trace whole', () => {
    const { watch, exportOne, advance } = setUp();
    const sampler = new CollectorAwareSampler(new AlwaysOnSampler(), watch);
    exportOne(refused);

    expect(decide(sampler, ROOT_CONTEXT)).toBe(SamplingDecision.NOT_RECORD);
    // A caller's sampled trace is a new trace here too.
    expect(decide(sampler, withParent(TraceFlags.SAMPLED, true))).toBe(SamplingDecision.NOT_RECORD);
    // The spans of a trace this process did not record are not recorded, even by `always_on`.
    expect(decide(sampler, withParent(TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
    advance(1000);
    expect(decide(sampler, ROOT_CONTEXT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    // The probe's children are recorded, however many.
    for (let child = 0; child < 5; child++) {
      expect(decide(sampler, withParent(TraceFlags.SAMPLED))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    }
    expect(watch.tracesShed).toBe(2);

    exportOne(taken);
    expect(decide(sampler, ROOT_CONTEXT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(sampler, withParent(TraceFlags.SAMPLED, true))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });
});

describe("CollectorWatch, hearing the exporter's attempts", () => {
  let collector: Server;
  let status = 503;
  let port: number;

  beforeAll(async () => {
    collector = createServer((req, res) => {
      req.resume();
      res.writeHead(status).end();
    }).listen(0, '127.0.0.1');
    await once(collector, 'listening');
    port = (collector.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => collector.close(resolve));
  });

  /** An export attempt as the OTLP exporter makes it (its user agent), or another request. */
  const send = (toPort: number, userAgent = 'OTel-OTLP-Exporter-JavaScript/0.301.0') =>
    new Promise<void>((resolve) => {
      const sent = request(
        {
          host: '127.0.0.1',
          port: toPort,
          path: '/v1/traces',
          method: 'POST',
          headers: { 'User-Agent': userAgent },
        },
        (res) => res.resume().on('end', resolve),
      );
      sent.on('error', () => resolve());
      sent.end('{}');
    });

  it('marks the collector refusing at the first attempt it answers with a retried status, before the export ends', async () => {
    const { watch, changes } = setUp();
    const stop = watch.watchExporterRequests();
    try {
      status = 200;
      await send(port);
      expect(watch.collectorReachable).toBe(true);
      // Another client's request to the same place is not the exporter's.
      status = 503;
      await send(port, 'curl/8.0');
      expect(watch.collectorReachable).toBe(true);
      await send(port);
      expect(watch.collectorReachable).toBe(false);
      expect(changes).toEqual([{ reachable: false, error: new Error('The collector answered 503') }]);
    } finally {
      stop();
    }
  });

  it('marks it refusing when an attempt cannot connect, and stops watching when told', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));

    const { watch, changes, exportOne } = setUp();
    const stop = watch.watchExporterRequests();
    try {
      await send(closedPort);
      expect(changes).toEqual([
        { reachable: false, error: expect.objectContaining({ code: 'ECONNREFUSED' }) },
      ]);
      exportOne(taken);
      expect(watch.collectorReachable).toBe(true);
    } finally {
      stop();
    }
    await send(closedPort);
    expect(watch.collectorReachable).toBe(true);
  });
});

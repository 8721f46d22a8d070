import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { Controller, Get } from '@nestjs/common';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { hrTimeToMilliseconds } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Public } from 'src/platform/auth/auth.decorators';
import { TypeormUnitOfWork } from 'src/platform/database/typeorm-unit-of-work';
import { freePort } from 'src/platform/net/free-port';
import { CollectorWatch } from 'src/platform/observability/collector-watch';
import { tracePgQueries } from 'src/platform/observability/pg-spans';
import { inServerSpans } from 'src/platform/observability/server-spans';
import { expect } from 'test/support/expect';
import { FakeOpenAi } from 'test/support/fake-openai';
import { McpTestServer, startMcpTestServer } from 'test/support/mcp-test-server';
import { startOtlpReceiver } from 'test/support/otlp-receiver';
import { openSse } from 'test/support/sse-client';
import { paths } from 'test/support/paths';
import { ServiceProcess, runServiceToExit, startService, tempDataDir } from 'test/support/service-process';
import { TestApp, createTestApp } from 'test/support/test-app';
import { until } from 'test/support/until';
import { ApiWorld, World, WorkspaceFixture, api, defaultContext } from 'test/support/world';

/**
 * Instrumentations patch modules as Node loads them, which Jest's module loader bypasses: the
 * traced service runs as its own process, started as `npm start` starts it, and exports to a
 * collector of this test.
 */
/** OTLP's SpanKind of the span a server opens for a request it receives, and of an outgoing call's. */
const SERVER = 2;
const CLIENT = 3;
/** The MCP server's key, given in its URL's query. */
const MCP_URL_KEY = 'mcp-url-key-not-to-trace';
/** OTLP's status code of a failed span. */
const STATUS_ERROR = 2;

describe('traces', () => {
  let t: TestApp;
  let service: ServiceProcess;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let mcp: McpTestServer;
  let a: WorkspaceFixture;
  let agentSId: string;
  let gptAgentSId: string;
  let dataDir: string;
  const openai = new FakeOpenAi();

  beforeAll(async () => {
    [mcp, receiver, dataDir] = await Promise.all([
      // A key in the server's URL, its path and its query, as some servers take it: never in a span.
      startMcpTestServer({ mcpPath: `/mcp/${MCP_URL_KEY}` }),
      startOtlpReceiver(),
      tempDataDir(),
    ]);
    // The test's app prepares the workspace on the database the service then serves.
    t = await createTestApp();
    const world = new World(t);
    a = await world.workspace();
    const globalSpace = await world.globalSpace(a.admin);
    const server = await api(t, a.admin)
      .post(paths.toolServers(a.workspace.sId))
      .send({ name: 'crm', url: `${mcp.url}?${MCP_URL_KEY}`, description: 'Test tools' })
      .expect(200);
    await api(t, a.admin)
      .post(paths.toolServerViews(a.workspace.sId, globalSpace))
      .send({ mcpServerId: server.body.mcpServer.sId })
      .expect(200);
    agentSId = (
      await world.agent(a.admin, {
        instructions: 'Use your tools.',
        model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        actions: [{ name: 'crm', mcpServerName: 'crm' }],
      })
    ).sId;
    gptAgentSId = (
      await world.agent(a.admin, {
        instructions: 'Answer briefly.',
        model: { providerId: 'openai', modelId: 'gpt-test', temperature: 0 },
      })
    ).sId;
    service = await startService({
      OPENAI_BASE_URL: await openai.start(),
      OPENAI_API_KEY: 'sk-test',
      OPENAI_MAX_RETRIES: '0',
      DATABASE_URL: t.config.databaseUrl!,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      MCP_ALLOW_PRIVATE_NETWORKS: 'true',
      LOCAL_MODEL_CHUNK_DELAY_MS: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
    await service?.stop();
    await t.close();
    await Promise.all([
      receiver.stop(),
      mcp.stop(),
      openai.stop(),
      rm(dataDir, { recursive: true, force: true }),
    ]);
  });

  it('follows a posted message in one trace: the POST, the run, its model calls, its tool call and its event appends', async () => {
    const posted = await api(service.baseUrl, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .send({
        message: {
          content: '/tool crm__add {"a": 2, "b": 40}',
          mentions: [{ configurationId: agentSId }],
          context: defaultContext,
        },
      })
      .expect(200);
    const cId = posted.body.conversation.sId as string;
    const requestId = posted.headers['x-request-id'];

    const post = await until(
      async () =>
        receiver.spans.find(
          (span) =>
            span.kind === SERVER &&
            span.attributes['http.request.method'] === 'POST' &&
            span.attributes['url.path'] === paths.conversations(a.workspace.sId),
        ),
      (span) => span !== undefined,
    );
    const inTrace = () => receiver.spans.filter((span) => span.traceId === post!.traceId);
    const spans = await until(
      async () => inTrace(),
      (found) => found.some((span) => span.name === 'agent run'),
      30_000,
    );
    const byName = (name: string) => spans.filter((span) => span.name === name);
    // The POST's span is named after the route's template, and the only span of the request's edge.
    const route = '/api/w/:wId/assistant/conversations';
    expect(post!.attributes['http.route']).toBe(route);
    expect(post!.name).toBe(`POST ${route}`);
    expect(spans.filter((span) => span.kind === SERVER)).toEqual([post]);
    const run = byName('agent run')[0];
    expect(run.attributes).toMatchObject({ 'workspace.id': a.workspace.sId, 'agent.id': agentSId });
    expect(byName('model call').map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'model.provider': 'local', 'model.id': 'local-1', outcome: 'succeeded' }),
      expect.objectContaining({ 'model.provider': 'local', 'model.id': 'local-1', outcome: 'succeeded' }),
    ]);
    for (const call of byName('model call')) expect(call.parentSpanId).toBe(run.spanId);
    expect(byName('tool call').map((span) => span.attributes)).toEqual([
      expect.objectContaining({ 'tool.server': 'crm', 'tool.name': 'add', outcome: 'succeeded' }),
    ]);
    expect(byName('tool call')[0].parentSpanId).toBe(run.spanId);
    // The tool call's requests to the MCP server: client spans of the fetch instrumentation, the
    // URL's origin only, and each request carrying the trace with its span as parent.
    const toolCall = byName('tool call')[0];
    const toMcp = spans.filter((span) => span.kind === CLIENT && span.parentSpanId === toolCall.spanId);
    expect(toMcp.map((span) => span.attributes)).toContainEqual(
      expect.objectContaining({ 'http.request.method': 'POST', 'http.response.status_code': 200 }),
    );
    expect(new Set(toMcp.map((span) => span.attributes['url.full']))).toEqual(
      new Set([`${new URL(mcp.url).origin}/REDACTED?REDACTED`]),
    );
    const carried = mcp.requests.map((request) => request.traceparent);
    for (const span of toMcp) expect(carried).toContain(`00-${post!.traceId}-${span.spanId}-01`);
    expect(JSON.stringify(receiver.spans)).not.toContain(MCP_URL_KEY);
    // One event appended alone names its type; several in one statement, their types.
    const appended = byName('event append').flatMap((span) =>
      String(span.attributes['event.type'] ?? span.attributes['event.types']).split(','),
    );
    expect(appended).toEqual(expect.arrayContaining(['agent_message_new', 'agent_message_done']));
    // pg's spans: the appends' inserts among them.
    expect(
      spans.some((span) => {
        const query = span.attributes['db.query.text'];
        return typeof query === 'string' && query.includes('INSERT INTO conversation_events');
      }),
    ).toBe(true);
    // Queries outside any request or run (the schedulers' polls) open no trace of their own.
    const queries = receiver.spans.filter((span) => span.name.startsWith('pg.'));
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.filter((span) => !span.parentSpanId)).toEqual([]);
    // The run answered, as without tracing.
    const messages = await new ApiWorld(service.baseUrl).settled(a.admin, cId);
    expect(messages.find((message) => message.type === 'agent_message')).toMatchObject({
      status: 'succeeded',
      content: 'crm__add answered: 42',
    });

    // The POST's access line carries its trace id.
    const line = service
      .output()
      .split('\n')
      .find((text) => text.includes(requestId) && text.includes('request completed'));
    expect(JSON.parse(line!)).toMatchObject({ trace_id: post!.traceId });
  });

  it('opens no trace for probes and scrapes, and names a read after its route', async () => {
    for (const probe of ['/healthz', '/readyz?full=1', '/metrics']) await fetch(`${service.baseUrl}${probe}`);
    await api(service.baseUrl, a.admin).get(paths.agents(a.workspace.sId)).expect(200);
    // Spans are exported in the order they end: the probes' would be there before the read's.
    const readSpan = await until(
      async () =>
        receiver.spans.find(
          (span) => span.kind === SERVER && span.attributes['url.path'] === paths.agents(a.workspace.sId),
        ),
      (span) => span !== undefined,
    );
    expect(readSpan).toMatchObject({
      name: 'GET /api/w/:wId/assistant/agent_configurations',
      attributes: expect.objectContaining({
        'http.route': '/api/w/:wId/assistant/agent_configurations',
        'http.response.status_code': 200,
      }),
    });
    const probed = receiver.spans.filter((span) =>
      ['/healthz', '/readyz', '/metrics'].includes(String(span.attributes['url.path'])),
    );
    expect(probed).toEqual([]);
  });

  it('names a refused read after its route, with its status and method, and never its query', async () => {
    const missing = paths.conversation(a.workspace.sId, 'cNeverCreated');
    await api(service.baseUrl, a.admin).get(`${missing}?signature=s3cr3t-of-a-url`).expect(404);
    const span = await until(
      async () =>
        receiver.spans.find((found) => found.kind === SERVER && found.attributes['url.path'] === missing),
      (found) => found !== undefined,
    );
    expect(span).toMatchObject({
      name: 'GET /api/w/:wId/assistant/conversations/:cId',
      attributes: {
        'http.request.method': 'GET',
        'url.path': missing,
        'http.route': '/api/w/:wId/assistant/conversations/:cId',
        'http.response.status_code': 404,
      },
    });
    // A caller's mistake is not the service's failure.
    expect(span!.status?.code ?? 0).not.toBe(STATUS_ERROR);
    expect(JSON.stringify(span)).not.toContain('s3cr3t');
  });

  it('ends the span of an event stream the client closes, and its access line keeps the trace id', async () => {
    const created = await api(service.baseUrl, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .send({ title: 'Watched' })
      .expect(200);
    const streamPath = paths.stream(a.workspace.sId, created.body.conversation.sId);
    const stream = await openSse(`${service.baseUrl}${streamPath}`, {
      Authorization: `Bearer ${a.admin.secret}`,
    });
    expect(stream.status).toBe(200);
    stream.close();
    const span = await until(
      async () =>
        receiver.spans.find((found) => found.kind === SERVER && found.attributes['url.path'] === streamPath),
      (found) => found !== undefined,
    );
    expect(span!.attributes['http.response.status_code']).toBe(200);
    // Written on 'close', which the closed socket emits outside the request's context.
    const line = await until(
      async () =>
        service
          .output()
          .split('\n')
          .find(
            (text) =>
              text.includes(String(stream.headers['x-request-id'])) && text.includes('request aborted'),
          ),
      (found) => found !== undefined,
    );
    expect(JSON.parse(line!)).toMatchObject({ trace_id: span!.traceId, span_id: span!.spanId });
  });

  it('gives a model call the tokens its provider reports', async () => {
    openai.script({
      kind: 'stream',
      chunks: ['Noted.'],
      usage: { prompt: 310, completion: 42, reasoning: 12 },
    });
    const posted = await api(service.baseUrl, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .send({
        message: {
          content: 'Note this.',
          mentions: [{ configurationId: gptAgentSId }],
          context: defaultContext,
        },
      })
      .expect(200);
    const cId = posted.body.conversation.sId as string;
    const call = await until(
      async () =>
        receiver.spans.find(
          (span) => span.name === 'model call' && span.attributes['model.id'] === 'gpt-test',
        ),
      (span) => span !== undefined,
      30_000,
    );
    expect(call!.attributes).toMatchObject({
      'model.provider': 'openai',
      outcome: 'succeeded',
      'gen_ai.usage.input_tokens': 310,
      'gen_ai.usage.output_tokens': 42,
      'gen_ai.usage.reasoning_tokens': 12,
    });
    const messages = await new ApiWorld(service.baseUrl).settled(a.admin, cId);
    expect(messages.find((message) => message.type === 'agent_message')).toMatchObject({
      status: 'succeeded',
      content: 'Noted.',
    });
  });

  it("continues a caller's trace, and carries it to the model provider's request", async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    openai.script({ kind: 'stream', chunks: ['Carried on.'] });
    const calls = openai.requests.length;
    const posted = await api(service.baseUrl, a.admin)
      .post(paths.conversations(a.workspace.sId))
      .set('traceparent', `00-${traceId}-${callerSpanId}-01`)
      .send({
        message: {
          content: 'Carry this.',
          mentions: [{ configurationId: gptAgentSId }],
          context: defaultContext,
        },
      })
      .expect(200);
    const inTrace = (name: string) =>
      receiver.spans.find((span) => span.traceId === traceId && span.name === name);
    const post = await until(
      async () => inTrace('POST /api/w/:wId/assistant/conversations'),
      (span) => span !== undefined,
    );
    expect(post).toMatchObject({ kind: SERVER, parentSpanId: callerSpanId });
    // The run's call to the provider: an outgoing span of the HTTP instrumentation, in the trace.
    const outgoing = await until(
      async () =>
        receiver.spans.find(
          (span) =>
            span.traceId === traceId &&
            span.kind === CLIENT &&
            span.attributes['http.request.method'] === 'POST',
        ),
      (span) => span !== undefined,
      30_000,
    );
    expect(String(outgoing!.attributes['url.full'])).toContain('/chat/completions');
    // The provider got the trace on, with the outgoing call's span as its parent.
    expect(openai.requests[calls].traceparent).toBe(`00-${traceId}-${outgoing!.spanId}-01`);
    const messages = await new ApiWorld(service.baseUrl).settled(a.admin, posted.body.conversation.sId);
    expect(messages.find((message) => message.type === 'agent_message')).toMatchObject({
      status: 'succeeded',
      content: 'Carried on.',
    });
    // The run, and its model call, belong to the caller's trace too.
    await until(
      async () => inTrace('model call'),
      (span) => span !== undefined,
    );
  });

  it('records no new trace while the collector refuses spans (counting them), and every trace once it takes them again', async () => {
    const collector = await startOtlpReceiver();
    collector.refuseWith(503);
    const watched = await startService({
      DATABASE_URL: t.config.databaseUrl!,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      METRICS_TOKEN: 'metrics-token-of-the-traces-test',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      const scrape = async () => {
        const answer = await fetch(`${watched.baseUrl}/metrics`, {
          headers: { Authorization: 'Bearer metrics-token-of-the-traces-test' },
        });
        return answer.text();
      };
      const metric = (text: string, name: string) =>
        Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);
      const read = () => api(watched.baseUrl, a.admin).get(paths.me(a.workspace.sId)).expect(200);
      // The first request's spans make the batch the collector refuses. The refusal is seen at the
      // first attempt (the next comes a second later), not once the exporter has spent its retries
      // on the batch (five attempts over about 8 s).
      await read();
      await until(scrape, (text) => metric(text, 'tracing_collector_up') === 0);
      expect(collector.refused()).toBeLessThanOrEqual(2);

      const started = performance.now();
      for (let request = 0; request < 20; request++) await read();
      // One probe a second is recorded: all the others are shed.
      const probes = Math.floor((performance.now() - started) / 1000) + 1;
      expect(metric(await scrape(), 'tracing_traces_shed_total')).toBeGreaterThanOrEqual(20 - probes);
      // Their answers are unchanged.
      const answered = await read();
      expect(answered.body).toMatchObject({ user: { sId: a.admin.user.sId } });

      collector.refuseWith(null);
      // A probe a second keeps trying the collector; once one is taken, every request is traced.
      await until(
        async () => {
          await read();
          return scrape();
        },
        (text) => metric(text, 'tracing_collector_up') === 1,
      );
      const agentsPath = paths.agents(a.workspace.sId);
      for (let request = 0; request < 3; request++) {
        await api(watched.baseUrl, a.admin).get(agentsPath).expect(200);
      }
      await until(
        async () => collector.spans.filter((span) => span.attributes['url.path'] === agentsPath).length,
        (count) => count === 3,
      );

      const lines = watched
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map(
          (line) => JSON.parse(line) as { level: number; context?: string; msg: string; trace_id?: string },
        );
      // Written outside any request's trace: the request whose span filled the batch is not the subject.
      expect(
        lines
          .filter((line) => line.context === 'Tracing')
          .map((line) => [line.level, line.msg, line.trace_id]),
      ).toEqual([
        [
          40,
          'The collector did not take a batch of spans: new traces are not recorded (but one a second, to try it) until it does',
          undefined,
        ],
        [30, 'The collector takes spans again: every trace is recorded', undefined],
      ]);
    } finally {
      await watched.stop();
      await collector.stop();
    }
  });

  it('refuses to start on a sampler or an OTLP protocol it does not know, and says which', async () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, DATA_DIR: dataDir };
    const sampler = await runServiceToExit({ ...endpoint, OTEL_TRACES_SAMPLER: 'sometimes' });
    expect(sampler.code).toBe(1);
    expect(sampler.stderr).toContain('OTEL_TRACES_SAMPLER: "sometimes" is not one of always_on');
    const ratio = await runServiceToExit({
      ...endpoint,
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '10',
    });
    expect(ratio.code).toBe(1);
    expect(ratio.stderr).toContain('OTEL_TRACES_SAMPLER_ARG: 10 is not a ratio between 0 and 1');
    const protocol = await runServiceToExit({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'carrier-pigeon' });
    expect(protocol.code).toBe(1);
    expect(protocol.stderr).toContain(
      'OTEL_EXPORTER_OTLP_PROTOCOL: "carrier-pigeon" is not one of http/protobuf',
    );
  });

  it('stops with status 0 when no collector takes its last spans, and warns that they are lost', async () => {
    // A port nothing listens on: the exporter is refused; its timeout bounds the retries of the stop.
    const closedPort = await freePort();
    const unheard = await startService({
      DATABASE_URL: t.config.databaseUrl!,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closedPort}`,
      OTEL_EXPORTER_OTLP_TIMEOUT: '1000',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    await api(unheard.baseUrl, a.admin).get(paths.me(a.workspace.sId)).expect(200);

    const code = await unheard.stop();

    expect(code).toBe(0);
    const lines = unheard
      .output()
      .trim()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'The spans still buffered could not be sent to the collector; they are lost',
      }),
    );
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

/** A route no production code offers: an unexpected failure. */
@Public()
@Controller('__test')
class FailingController {
  @Get('boom')
  boom(): never {
    throw new Error('unexpected');
  }
}

/**
 * The server span itself needs no patched module, so it is checked here in process, on a route
 * that fails as no production route can be made to.
 */
describe('server spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let t: TestApp;

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    t = await createTestApp({
      controllers: [FailingController],
      tracing: {
        aroundRequests: inServerSpans,
        collector: new CollectorWatch(),
        shutdown: () => provider.shutdown(),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await provider.shutdown();
    trace.disable();
  });

  it('marks a request answered 5xx failed, with its status as error type', async () => {
    await api(t).get('/__test/boom').expect(500);
    const span = await until(
      async () =>
        exporter.getFinishedSpans().find((found) => found.attributes['url.path'] === '/__test/boom'),
      (found) => found !== undefined,
    );
    expect(span!.kind).toBe(SpanKind.SERVER);
    expect(span!.name).toBe('GET /__test/boom');
    expect(span!.attributes).toMatchObject({
      'http.route': '/__test/boom',
      'http.response.status_code': 500,
      'error.type': '500',
    });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });
});

/** pg's spans are ours (a patch of pg's client, not a module loader's): checked in process. */
describe('pg spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('test');
  let t: TestApp;
  let untrace: () => void;

  // The active span follows the work as the SDK's context manager carries it in the service.
  const contexts = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    context.setGlobalContextManager(contexts.enable());
    t = await createTestApp();
    untrace = tracePgQueries(tracer);
  });
  afterAll(async () => {
    untrace();
    await t.close();
    await provider.shutdown();
    context.disable();
  });

  /** Runs `work` in a recorded span; its id, and the spans of pg that ended inside it. */
  const inParent = async (work: () => Promise<unknown>) => {
    exporter.reset();
    const parentId = await tracer.startActiveSpan('parent', async (parent) => {
      await work().catch(() => undefined);
      parent.end();
      return parent.spanContext().spanId;
    });
    return { parentId, queries: exporter.getFinishedSpans().filter((span) => span.name.startsWith('pg.')) };
  };

  it('gives each query made inside a recorded span a client span, as the pg instrumentation names it', async () => {
    const database = String(t.dataSource.driver.database);
    const { parentId, queries } = await inParent(() => t.dataSource.query('SELECT 1 AS one'));
    expect(queries).toHaveLength(1);
    expect(queries[0].name).toBe(`pg.query:SELECT ${database}`);
    expect(queries[0].kind).toBe(SpanKind.CLIENT);
    expect(queries[0].parentSpanContext?.spanId).toBe(parentId);
    expect(queries[0].attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.namespace': database,
      'db.operation.name': 'SELECT',
      'db.query.text': 'SELECT 1 AS one',
    });
    expect(queries[0].status.code).toBe(SpanStatusCode.UNSET);

    // A named prepared statement on the pool (the hot reads), through pg's callback form.
    const unitOfWork = t.app.get(TypeormUnitOfWork);
    const named = await inParent(() => unitOfWork.hotRead('test_plan', 'SELECT $1::int AS n', [3]));
    expect(named.queries.map((span) => [span.name, span.attributes['db.postgresql.plan']])).toEqual([
      [`pg.query:test_plan ${database}`, 'test_plan'],
    ]);
  });

  it('describes a prepared statement by its own text, when its name comes back with another', async () => {
    const unitOfWork = t.app.get(TypeormUnitOfWork);
    const first = await inParent(() => unitOfWork.hotRead('test_renamed', 'SELECT $1::int AS n', [1]));
    // pg refuses a name's second text on the connection that prepared it: another connection asks.
    const second = await inParent(async () => {
      const runner = t.dataSource.createQueryRunner();
      try {
        const client = (await runner.connect()) as { query: (config: object) => Promise<unknown> };
        await client.query({
          name: 'test_renamed',
          text: 'WITH n AS (SELECT $1::int AS n) SELECT n FROM n',
          values: [2],
        });
      } finally {
        await runner.release();
      }
    });
    const described = [...first.queries, ...second.queries].map((span) => [
      span.attributes['db.operation.name'],
      span.attributes['db.query.text'],
      span.attributes['db.postgresql.plan'],
    ]);
    expect(described).toEqual([
      ['SELECT', 'SELECT $1::int AS n', 'test_renamed'],
      ['WITH', 'WITH n AS (SELECT $1::int AS n) SELECT n FROM n', 'test_renamed'],
    ]);
  });

  it('spans a query from its call to the answer', async () => {
    const before = Date.now();
    const { parentId, queries } = await inParent(() => t.dataSource.query('SELECT pg_sleep(0.05)'));
    const after = Date.now();
    expect(queries).toHaveLength(1);
    expect(queries[0].parentSpanContext?.spanId).toBe(parentId);
    const start = hrTimeToMilliseconds(queries[0].startTime);
    const end = hrTimeToMilliseconds(queries[0].endTime);
    expect(end - start).toBeGreaterThanOrEqual(50);
    // The SDK's clock and Date.now() may differ by a millisecond or so.
    expect(start).toBeGreaterThanOrEqual(before - 20);
    expect(end).toBeLessThanOrEqual(after + 20);
  });

  it('makes a query that waited for a pooled connection the child of its own caller', async () => {
    const unitOfWork = t.app.get(TypeormUnitOfWork);
    const pool = (t.dataSource.driver as unknown as { master: { options: { max: number } } }).master;
    exporter.reset();
    // More callers than connections: most wait, and get theirs from another caller's release.
    const callers = await Promise.all(
      Array.from({ length: pool.options.max + 4 }, (_, i) =>
        tracer.startActiveSpan(`caller ${i}`, async (caller) => {
          await unitOfWork.hotRead('test_wait', 'SELECT pg_sleep(0.02), $1::int AS n', [i]);
          caller.end();
          return caller.spanContext().spanId;
        }),
      ),
    );
    const queries = exporter.getFinishedSpans().filter((span) => span.name.startsWith('pg.'));
    expect(queries.map((span) => span.parentSpanContext?.spanId).sort()).toEqual([...callers].sort());
  });

  it('marks a failed query with its SQLSTATE, and traces nothing outside a recorded span', async () => {
    const { queries } = await inParent(() => t.dataSource.query('SELECT * FROM no_such_table'));
    expect(queries).toHaveLength(1);
    expect(queries[0].status.code).toBe(SpanStatusCode.ERROR);
    expect(queries[0].attributes['error.type']).toBe('42P01');

    exporter.reset();
    await t.dataSource.query('SELECT 2 AS two');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

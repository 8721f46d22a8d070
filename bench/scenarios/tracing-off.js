/**
 * What the tracing code costs endpoint 11 when tracing is off, read in the service's own CPU
 * profile: a further process, untraced, loaded at 32 connections on one conversation, its main
 * thread sampled over the measured seconds (bench/profile-on-signal.js; 50 µs asked, V8 takes what
 * it can: about one sample in 220 µs on the project's machine). Each busy sample is charged to the
 * service's or a package's code that was running, Node's internals and V8's builtins to the code
 * that called them (bench/cpu-profile.js). The tracing code is OpenTelemetry's packages, the
 * exporters' protobuf and gRPC, the service's span modules and the log's trace fields. Target: its
 * share < 2 %. A throughput comparison cannot show 2 % on a shared machine (two identical
 * processes differ by several points a run); the profile sees one sample in about 17,000.
 *
 * The same reading of a process traced to a collector that takes every span (the bench's own, on
 * loopback) shows that the measure sees tracing when it runs: below 5 % it is blind (a path or a
 * frame's form that no longer matches), and the row fails, as it does on any failed request.
 */
const { once } = require('node:events');
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');
const { chargedSamples } = require('../cpu-profile');
const { conversation, startService, summaryOf } = require('../harness');

const INTERVAL_US = 50;
const WARM_UP_S = 2;
const MEASURED_S = 4;
const TARGET_SHARE = 0.02;
/** The least the reading must find in the traced process (about 20 % on the project's machine). */
const CHECK_SHARE = 0.05;
const PROFILER = join(__dirname, '..', 'profile-on-signal.js');

/** The tracing code: OpenTelemetry's packages, the exporters' gRPC and protobuf, the service's span modules… */
const TRACING_FILES = [
  /\/node_modules\/@opentelemetry\//,
  /\/node_modules\/@grpc\//,
  /\/node_modules\/(@protobufjs\/|protobufjs\/)/,
  /\/dist\/src\/platform\/observability\/(spans|server-spans|pg-spans|fetch-spans|tracing|tracing-bootstrap|collector-watch|collector-metrics)\.js$/,
];
/** The log's functions that read the active span's ids (the rest of app-logger.js is logging). */
const TRACE_FIELDS = /\/dist\/src\/platform\/logging\/app-logger\.js$/;
const TRACE_FIELD_FUNCTIONS = new Set(['traceFields', 'idsOf']);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** …and the log's trace fields. */
const isTracing = (frame) =>
  TRACING_FILES.some((pattern) => pattern.test(frame.url)) ||
  (TRACE_FIELDS.test(frame.url) && TRACE_FIELD_FUNCTIONS.has(frame.functionName));

/** Loads `side` with endpoint 11 and returns its profile of the measured seconds, with the requests. */
async function profiled(side, path, headers, out) {
  const url = `${side.baseUrl}${path}`;
  await autocannon({ url, headers, connections: 32, duration: WARM_UP_S });
  process.kill(side.pid, 'SIGUSR2');
  const result = await autocannon({ url, headers, connections: 32, duration: MEASURED_S });
  process.kill(side.pid, 'SIGUSR2');
  for (let waited = 0; !existsSync(out); waited += 100) {
    if (waited > 30_000) throw new Error(`No profile from the service after ${waited} ms`);
    await sleep(100);
  }
  return { result, profile: JSON.parse(readFileSync(out, 'utf8')) };
}

/** An OTLP collector that takes every batch: a 200 with an empty answer once the body is read. */
async function collector() {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { endpoint: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** One process of the service with the profiler preloaded: its row, from its profile under load. */
async function measure({ service, path, headers, dir, name, env }) {
  const out = join(dir, `${name}.cpuprofile`);
  const side = await startService({
    env: {
      RATE_LIMIT_REQUESTS: '1000000000',
      BENCH_PROFILE_OUT: out,
      BENCH_PROFILE_INTERVAL_US: String(INTERVAL_US),
      ...env,
    },
    dataDir: service.dataDir,
    nodeArgs: ['--require', PROFILER],
  });
  try {
    const { result, profile } = await profiled(side, path, headers, out);
    const { busy, charged } = chargedSamples(profile, isTracing);
    const perSecond = profile.samples.length / ((profile.endTime - profile.startTime) / 1e6);
    return { result, busy, tracing: charged, perSecond };
  } finally {
    await side.stop();
  }
}

const percent = (share) => `${(share * 100).toFixed(share < 0.01 ? 3 : 1)}%`;

module.exports = {
  name: 'tracing-off',
  async run({ service }) {
    const { url, secret } = await conversation(service, 'Tracing off bench');
    const path = new URL(url).pathname;
    const headers = { Authorization: `Bearer ${secret}` };
    const dir = mkdtempSync(join(tmpdir(), 'wa-bench-profile-'));
    const receiver = await collector();
    try {
      const common = { service, path, headers, dir };
      const off = await measure({ ...common, name: 'off', env: { OTEL_EXPORTER_OTLP_ENDPOINT: '' } });
      const on = await measure({
        ...common,
        name: 'on',
        env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_TRACES_SAMPLER: 'always_on' },
      });
      const row = (scenario, side, note) => ({
        scenario,
        ...summaryOf(side.result),
        note:
          `${note}; tracing code in ${side.tracing} of ${side.busy} busy samples ` +
          `(${MEASURED_S} s under the profiler, ${Math.round(side.perSecond)} samples a second)`,
      });
      const offShare = off.tracing / off.busy;
      const onShare = on.tracing / on.busy;
      // A reading that no longer finds the traced process's tracing code would find none when off either.
      const blind = !(onShare >= CHECK_SHARE);
      const failed =
        !(offShare < TARGET_SHARE) ||
        blind ||
        summaryOf(off.result).errors > 0 ||
        summaryOf(on.result).errors > 0;
      return [
        {
          ...row(
            'conversation get, tracing off: what tracing costs',
            off,
            `${percent(offShare)} of the main thread's CPU (target < ${TARGET_SHARE * 100}%)${failed ? ' — MISSED' : ''}`,
          ),
          failed,
        },
        row(
          'conversation get, traced to a collector taking every span',
          on,
          `${percent(onShare)} of the main thread's CPU (the measure's check: ≥ ${CHECK_SHARE * 100}%, ` +
            `or the reading is blind)${blind ? ' — BLIND' : ''}`,
        ),
      ];
    } finally {
      receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * What tracing costs endpoint 11: two further processes of the service on the same database, one
 * untraced and one traced with every request sampled and an OTLP endpoint nobody listens on
 * (spans made, batched, serialised and sent in vain), loaded in turn at 32 connections on the same
 * conversation, the order swapped each round. Measured in each round: requests a second, and the
 * CPU a request cost each process (user + system, /proc). Target: the traced process keeps at
 * least 90 % of the untraced one's throughput (the median round's).
 *
 * `BENCH_TRACING_CONTROL=1` runs the same rounds with the second process untraced too: the share
 * two identical processes give shows how far a run of this scenario can be trusted on the machine
 * (no target; the control row is never failed).
 */
const autocannon = require('autocannon');
const { conversation, cpuSeconds, startService, summaryOf } = require('../harness');

const ROUNDS = 6;
const WARM_UP_S = 1;
const MEASURED_S = 4;
const TARGET_SHARE = 0.9;
const CONTROL = process.env.BENCH_TRACING_CONTROL === '1';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One side's load: requests a second, p99, errors and CPU µs a request over the measured seconds. */
async function measure(side, path, headers) {
  const url = `${side.baseUrl}${path}`;
  await autocannon({ url, headers, connections: 32, duration: WARM_UP_S });
  const cpuBefore = cpuSeconds(side.pid);
  const result = await autocannon({ url, headers, connections: 32, duration: MEASURED_S });
  const cpu = cpuSeconds(side.pid) - cpuBefore;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: summaryOf(result).errors,
    cpuMicros: (cpu * 1e6) / result.requests.total,
  };
}

module.exports = {
  name: 'tracing',
  async run({ service }) {
    const { url, secret } = await conversation(service, 'Tracing bench');
    const path = new URL(url).pathname;
    const headers = { Authorization: `Bearer ${secret}` };
    const common = { RATE_LIMIT_REQUESTS: '1000000000', OTEL_EXPORTER_OTLP_ENDPOINT: '' };
    const off = await startService({ env: common, dataDir: service.dataDir });
    const traced = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER: 'always_on' };
    const on = await startService({
      env: { ...common, ...(CONTROL ? {} : traced) },
      dataDir: service.dataDir,
    });
    try {
      const rounds = [];
      for (let round = 0; round < ROUNDS; round++) {
        const first = round % 2 === 0 ? off : on;
        const second = first === off ? on : off;
        const results = new Map([
          [first, await measure(first, path, headers)],
          [second, await measure(second, path, headers)],
        ]);
        rounds.push({ off: results.get(off), on: results.get(on) });
      }
      const share = median(rounds.map((r) => r.on.rps / r.off.rps));
      const cpuRatio = median(rounds.map((r) => r.on.cpuMicros / r.off.cpuMicros));
      const summary = (side) => ({
        rps: Math.round(median(rounds.map((r) => r[side].rps))),
        p50: '-',
        p99: median(rounds.map((r) => r[side].p99)),
        errors: rounds.reduce((sum, r) => sum + r[side].errors, 0),
      });
      const failed = !CONTROL && !(share >= TARGET_SHARE);
      const cpu = (side) => Math.round(median(rounds.map((r) => r[side].cpuMicros)));
      return [
        {
          scenario: 'conversation get, tracing off',
          ...summary('off'),
          note: `median of ${ROUNDS} rounds alternated with the ${CONTROL ? 'second' : 'traced'} process; CPU ${cpu('off')} µs a request`,
        },
        {
          scenario: CONTROL
            ? 'conversation get, a second untraced process (control)'
            : 'conversation get, traced (no collector)',
          ...summary('on'),
          note:
            `${(share * 100).toFixed(1)}% of the untraced throughput, median round ` +
            `(${CONTROL ? 'control, no target' : `target ≥ ${TARGET_SHARE * 100}%`}); ` +
            `CPU ${cpu('on')} µs a request, ×${cpuRatio.toFixed(2)} the untraced in the median round; ` +
            `per round ${rounds.map((r) => `${((r.on.rps / r.off.rps) * 100).toFixed(0)}%`).join(' ')}` +
            `${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      await on.stop();
      await off.stop();
    }
  },
};

#!/usr/bin/env node
/**
 * `npm run bench [scenario…]`: runs the named scenarios (all by default) against the built
 * service and prints one table. A full run writes it to bench/results/latest.md, the figures that
 * bench/README.md quotes; a partial run writes bench/results/partial.md instead (not tracked), so
 * the two never disagree.
 */
const { mkdirSync, readdirSync, writeFileSync } = require('node:fs');
const { cpus, totalmem } = require('node:os');
const { join } = require('node:path');
const { startService } = require('./harness');

const scenarios = readdirSync(join(__dirname, 'scenarios'))
  .filter((file) => file.endsWith('.js'))
  .map((file) => require(join(__dirname, 'scenarios', file)));

function table(rows) {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'note'];
  const lines = rows.map((r) => [r.scenario, r.rps, r.p50, r.p99, r.errors, r.note ?? '']);
  return [header, header.map(() => '---'), ...lines].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

async function main() {
  const wanted = process.argv.slice(2);
  const selected = wanted.length ? scenarios.filter((s) => wanted.includes(s.name)) : scenarios;
  if (selected.length === 0) throw new Error(`No scenario named ${wanted.join(', ')}`);
  // Scenarios may need settings of their own (a larger upload limit…).
  // BENCH_TRACING=on: traced, exporting to a collector that is not there (what tracing costs alone).
  const tracing =
    process.env.BENCH_TRACING === 'on' ? { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } : {};
  const service = await startService({
    env: Object.assign({}, ...selected.map((s) => s.env ?? {}), tracing),
  });
  const rows = [];
  let failed = false;
  try {
    for (const scenario of selected) {
      const result = await scenario.run({ service });
      rows.push(...result);
      failed ||= result.some((row) => row.failed);
    }
  } finally {
    await service.stop();
  }
  const machine = `${cpus().length} cores (${cpus()[0].model}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  const report = `# Benchmark results\n\n${new Date().toISOString()} on ${machine}\n\n${table(rows)}\n`;
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  const file = selected.length === scenarios.length ? 'latest.md' : 'partial.md';
  writeFileSync(join(__dirname, 'results', file), report);
  process.stdout.write(`${report}`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

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
const { Client } = require('pg');
const { databaseConfig } = require('./database');
const { startService } = require('./harness');

/** Agent answers a scenario started (schedules fired, wake-ups…) may run on after its figures. */
const SETTLE_TIMEOUT_MS = 180_000;

/**
 * Waits until no agent message of the service is still being answered, so that a scenario's runs
 * do not load the next one's measurement. Returns how long that took.
 */
async function settle(service) {
  const started = Date.now();
  const db = new Client(databaseConfig(service.dataDir));
  await db.connect();
  try {
    for (;;) {
      const { rows } = await db.query(
        "SELECT count(*)::int AS n FROM messages WHERE type = 'agent_message' AND status = 'created'",
      );
      if (rows[0].n === 0) return Date.now() - started;
      if (Date.now() - started > SETTLE_TIMEOUT_MS) {
        throw new Error(`${rows[0].n} agent answers still running ${SETTLE_TIMEOUT_MS} ms after a scenario`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await db.end();
  }
}

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
      const waited = await settle(service);
      if (waited > 1_000)
        console.error(`${scenario.name}: its agent answers ended ${waited} ms after its figures`);
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

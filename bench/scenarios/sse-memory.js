/**
 * Resident memory per idle SSE subscriber: the RSS growth of a service process that opens 2,000
 * idle streams, each reading taken after a full garbage collection. Target: < 40 KB a subscriber.
 * The process is a second one on the bench's database, so earlier scenarios leave nothing in it.
 */
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { conversation, procStatus, startService } = require('../harness');
const { checkOpenFiles, streamAgent, subscribe, subscribeMany, unopenedRow } = require('../sse');

const SUBSCRIBERS = 2000;
const SCENARIO = `sse memory (${SUBSCRIBERS} idle subscribers)`;
const WARM_UP = 200;
const BATCH = 200;
const TARGET_BYTES = 40 * 1024;
const SETTLE_MS = 3_000;
const SPARE_FILES = 500;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Heap used and VmRSS once the process is quiet and collected twice (bench/gc-on-signal.js answers
 * SIGUSR2 with a collection and its memoryUsage() in `report`).
 */
async function settled(pid, report) {
  await sleep(SETTLE_MS);
  for (let i = 0; i < 2; i++) {
    rmSync(report, { force: true });
    process.kill(pid, 'SIGUSR2');
    await sleep(1_000);
  }
  return { heapUsed: JSON.parse(readFileSync(report, 'utf8')).heapUsed, rss: procStatus(pid, 'VmRSS') };
}

module.exports = {
  name: 'sse-memory',
  async run({ service }) {
    const { wId, cId, secret } = await conversation(service, 'SSE memory bench');
    const reportDir = mkdtempSync(join(tmpdir(), 'wa-bench-memory-'));
    const report = join(reportDir, 'memory.json');
    const measured = await startService({
      // One key holds every stream: the per-key and per-workspace caps are raised for the run.
      env: {
        BENCH_MEMORY_REPORT: report,
        SSE_MAX_KEY_STREAMS: String(SUBSCRIBERS),
        SSE_MAX_WORKSPACE_STREAMS: String(SUBSCRIBERS),
      },
      dataDir: service.dataDir,
      nodeArgs: ['--expose-gc', '--require', join(__dirname, '..', 'gc-on-signal.js')],
    });
    const agent = streamAgent();
    const open = (count) =>
      subscribeMany(count, BATCH, () =>
        subscribe(
          `${measured.baseUrl}/api/sse/w/${wId}/assistant/conversations/${cId}/events`,
          { Authorization: `Bearer ${secret}` },
          agent,
        ),
      );
    try {
      checkOpenFiles([process.pid, measured.pid], SUBSCRIBERS + SPARE_FILES);
      // First use of the route (compilation, database connections) is not the subscribers' cost.
      const warmUp = await open(WARM_UP);
      for (const subscriber of warmUp.subscribers) subscriber.close();
      if (warmUp.failure) return [unopenedRow(SCENARIO, warmUp.failure)];
      const before = await settled(measured.pid, report);
      const { subscribers, failure } = await open(SUBSCRIBERS);
      if (failure) return [unopenedRow(SCENARIO, failure)];
      const after = await settled(measured.pid, report);
      const closed = subscribers.filter((subscriber) => subscriber.closed).length;
      for (const subscriber of subscribers) subscriber.close();
      const perSubscriber = (after.rss - before.rss) / SUBSCRIBERS;
      const heapPerSubscriber = (after.heapUsed - before.heapUsed) / SUBSCRIBERS;
      const failed = closed > 0 || perSubscriber >= TARGET_BYTES;
      return [
        {
          scenario: SCENARIO,
          rps: '-',
          p50: '-',
          p99: '-',
          errors: closed,
          note:
            `${(perSubscriber / 1024).toFixed(1)} KB a subscriber (target < ${TARGET_BYTES / 1024}), ` +
            `${(heapPerSubscriber / 1024).toFixed(1)} KB of it JS heap; ` +
            `RSS ${(before.rss / 2 ** 20).toFixed(0)} → ${(after.rss / 2 ** 20).toFixed(0)} MiB` +
            `${closed > 0 ? `; ${closed} streams ended early` : ''}${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      agent.destroy();
      await measured.stop();
      rmSync(reportDir, { recursive: true, force: true });
    }
  },
};

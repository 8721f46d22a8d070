/**
 * Preloaded (`--expose-gc --require`) into a service process whose memory a scenario measures:
 * on SIGUSR2 it runs a full garbage collection, then writes process.memoryUsage() as JSON to the
 * file named by BENCH_MEMORY_REPORT, so a reading counts what is retained, not garbage.
 */
const { writeFileSync } = require('node:fs');

process.on('SIGUSR2', () => {
  global.gc();
  writeFileSync(process.env.BENCH_MEMORY_REPORT, JSON.stringify(process.memoryUsage()));
});

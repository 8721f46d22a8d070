/**
 * Preloaded (`--require`) into a service process whose CPU a scenario reads: the first SIGUSR2
 * starts V8's sampling profiler on the main thread (every BENCH_PROFILE_INTERVAL_US µs), the second
 * stops it and writes the profile (`.cpuprofile` JSON) to the file named by BENCH_PROFILE_OUT, so a
 * profile holds the loaded seconds only, not the start or the warm-up.
 */
const { renameSync, writeFileSync } = require('node:fs');
const { Session } = require('node:inspector');

const session = new Session();
session.connect();
let running = false;

const post = (method, params) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );

async function toggle() {
  if (!running) {
    running = true;
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US) });
    await post('Profiler.start');
    return;
  }
  running = false;
  const { profile } = await post('Profiler.stop');
  // Written aside, then renamed: the reader waits for the name and never sees half a file.
  const out = process.env.BENCH_PROFILE_OUT;
  writeFileSync(`${out}.part`, JSON.stringify(profile));
  renameSync(`${out}.part`, out);
}

process.on('SIGUSR2', () => {
  toggle().catch((error) => {
    console.error(error);
    process.exit(1);
  });
});

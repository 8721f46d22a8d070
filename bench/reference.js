/**
 * Runs a read on the service and on the bare reference (bench/reference-server.js: node:http + pg,
 * same database, same JSON) in the same scenario, and compares the two.
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { fetchText, load } = require('./harness');

const START_TIMEOUT_MS = 10_000;
const ROUNDS = 2;

/**
 * The reference server as a child process on the service's database (`service.databaseEnv`).
 * `service`: what the harness's startService returns, or any `{ baseUrl, databaseEnv }`.
 */
function startReference(service) {
  // The service's default public address (`PUBLIC_BASE_URL` unset): localhost on its port.
  const publicBaseUrl = `http://localhost:${new URL(service.baseUrl).port}`;
  const child = fork(join(__dirname, 'reference-server.js'), {
    env: { ...process.env, ...service.databaseEnv, PUBLIC_BASE_URL: publicBaseUrl },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`The reference server did not start in ${START_TIMEOUT_MS} ms`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`The reference server exited with ${code}`)));
    child.once('message', ({ port }) => {
      clearTimeout(timer);
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        stop: () => {
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}

/** `url` (the service's) on the reference. */
function onReference(reference, url) {
  const { pathname, search } = new URL(url);
  return `${reference.baseUrl}${pathname}${search}`;
}

/** The body each side answers to `url`, as sent: `{ reference, service }` (each a 2xx, or this throws). */
async function bodiesOf(service, url, headers) {
  const reference = await startReference(service);
  try {
    return {
      reference: await fetchText(onReference(reference, url), { headers }),
      service: await fetchText(url, { headers }),
    };
  } finally {
    await reference.stop();
  }
}

/**
 * Loads `url` on the reference and on the service, after checking that both answer the same bytes,
 * in interleaved rounds (reference, service, reference, service) so a burst of other work on the
 * machine hits both sides alike. Each side keeps its best round (such work only ever slows a round
 * down) and the errors of all. Returns `{ bare, measured, ratio, rounds }`.
 */
async function againstReference(service, url, headers) {
  const reference = await startReference(service);
  try {
    const referenceUrl = onReference(reference, url);
    const [expected, actual] = [
      await fetchText(referenceUrl, { headers }),
      await fetchText(url, { headers }),
    ];
    if (actual !== expected) {
      throw new Error(`The reference answers another body than the service:\n${expected}\n${actual}`);
    }
    const rounds = { bare: [], measured: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.bare.push(await load({ url: referenceUrl, headers }));
      rounds.measured.push(await load({ url, headers }));
    }
    const [bare, measured] = [rounds.bare, rounds.measured].map((results) => ({
      ...results.reduce((best, result) => (result.rps > best.rps ? result : best)),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
    }));
    return { bare, measured, ratio: measured.rps / bare.rps, rounds: ROUNDS };
  } finally {
    await reference.stop();
  }
}

module.exports = { againstReference, bodiesOf };

/**
 * GET one conversation (endpoint 11) at 32 connections, on the service and on the bare reference
 * (bench/reference-server.js, node:http + pg, same database, same JSON) in the same run, in two
 * interleaved rounds. Target: the service reaches at least 45 % of the reference's requests per
 * second, with p99 < 50 ms.
 */
const { deepStrictEqual } = require('node:assert');
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { conversation, fetchJson, load } = require('../harness');

const TARGET_RATIO = 0.45;
const TARGET_P99_MS = 50;
const START_TIMEOUT_MS = 10_000;
const ROUNDS = 2;

/** The reference server as a child process on the service's database. */
function startReference(dataDir) {
  const child = fork(join(__dirname, '..', 'reference-server.js'), {
    env: { ...process.env, DATA_DIR: dataDir },
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

module.exports = {
  name: 'conversation-get',
  // The per-key limiter stays on (its cost is part of the read path) but never refuses the load.
  env: { RATE_LIMIT_REQUESTS: '1000000000' },
  async run({ service }) {
    const { url, secret } = await conversation(service, 'Conversation bench');
    const headers = { Authorization: `Bearer ${secret}` };
    const reference = await startReference(service.dataDir);
    try {
      const referenceUrl = `${reference.baseUrl}${new URL(url).pathname}`;
      deepStrictEqual(await fetchJson(referenceUrl, { headers }), await fetchJson(url, { headers }));
      // Interleaved rounds, so a burst of other work on the machine hits both sides alike; each side
      // keeps its best round (such work only ever slows a round down) and the errors of all.
      const rounds = { bare: [], measured: [] };
      for (let round = 0; round < ROUNDS; round++) {
        rounds.bare.push(await load({ url: referenceUrl, headers }));
        rounds.measured.push(await load({ url, headers }));
      }
      const [bare, measured] = [rounds.bare, rounds.measured].map((results) => ({
        ...results.reduce((best, result) => (result.rps > best.rps ? result : best)),
        errors: results.reduce((sum, result) => sum + result.errors, 0),
      }));
      const ratio = measured.rps / bare.rps;
      const failed = ratio < TARGET_RATIO || measured.p99 >= TARGET_P99_MS;
      return [
        {
          scenario: 'conversation get (bare node:http + pg)',
          ...bare,
          note: `reference; best of ${ROUNDS} rounds`,
        },
        {
          scenario: 'conversation get (service)',
          ...measured,
          note:
            `best of ${ROUNDS} rounds; ${(ratio * 100).toFixed(0)}% of the reference (target ≥ ${TARGET_RATIO * 100}%), ` +
            `p99 target < ${TARGET_P99_MS} ms${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      await reference.stop();
    }
  },
};

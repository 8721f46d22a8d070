/**
 * GET one conversation (endpoint 11) at 32 connections, on the service and on the bare reference
 * (bench/reference-server.js, node:http + pg, same database, same JSON) in the same run, in two
 * interleaved rounds. Target: the service reaches at least 50 % of the reference's requests per
 * second, with p99 < 30 ms.
 */
const { conversation } = require('../harness');
const { againstReference, bodiesOf } = require('../reference');

const TARGET_RATIO = 0.5;
const TARGET_P99_MS = 30;

/** The conversation both sides read, and the caller's headers. */
async function prepare(service) {
  const { url, secret } = await conversation(service, 'Conversation bench');
  return { url, headers: { Authorization: `Bearer ${secret}` } };
}

module.exports = {
  name: 'conversation-get',
  // The per-key limiter stays on (its cost is part of the read path) but never refuses the load.
  env: { RATE_LIMIT_REQUESTS: '1000000000' },
  /** What each side answers to the measured read (the test suite checks they are the same bytes). */
  async bodies({ service }) {
    const { url, headers } = await prepare(service);
    return bodiesOf(service, url, headers);
  },
  async run({ service }) {
    const { url, headers } = await prepare(service);
    const { bare, measured, ratio, rounds } = await againstReference(service, url, headers);
    const failed = ratio < TARGET_RATIO || measured.p99 >= TARGET_P99_MS;
    return [
      {
        scenario: 'conversation get (bare node:http + pg)',
        ...bare,
        note: `reference; best of ${rounds} rounds`,
      },
      {
        scenario: 'conversation get (service)',
        ...measured,
        note:
          `best of ${rounds} rounds; ${(ratio * 100).toFixed(0)}% of the reference (target ≥ ${TARGET_RATIO * 100}%), ` +
          `p99 target < ${TARGET_P99_MS} ms${failed ? ' — MISSED' : ''}`,
        failed,
      },
    ];
  },
};

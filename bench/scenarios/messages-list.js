/**
 * GET the default page of messages of a 1,000-message conversation (user messages only, seeded
 * through the API), on the service and on the bare reference (bench/reference-server.js) in the
 * same run, in two interleaved rounds. Target: the service reaches at least 50 % of the reference's
 * requests per second.
 */
const { conversation, seed, userMessage } = require('../harness');
const { againstReference, bodiesOf } = require('../reference');

const MESSAGES = 1000;
/** Enough for a full page and a next cursor: the body check of the test suite. */
const MESSAGES_CHECKED = 60;
const TARGET_RATIO = 0.5;

/** The message list both sides read, of a conversation of `messages`, and the caller's headers. */
async function prepare(service, messages) {
  const { url, secret, headers } = await conversation(service, 'Messages bench');
  // The conversation starts with its first message; no mention, so no agent answers.
  await seed(messages - 1, 8, (i) => ({
    url: `${url}/messages`,
    init: { method: 'POST', headers, body: JSON.stringify(userMessage(`Message ${i + 2}`)) },
  }));
  return { url: `${url}/messages`, headers: { Authorization: `Bearer ${secret}` } };
}

module.exports = {
  name: 'messages-list',
  // The per-key limiter stays on (its cost is part of the read path) but never refuses the load.
  env: { RATE_LIMIT_REQUESTS: '1000000000' },
  /** What each side answers to the measured read (the test suite checks they are the same bytes). */
  async bodies({ service }) {
    const { url, headers } = await prepare(service, MESSAGES_CHECKED);
    return bodiesOf(service, url, headers);
  },
  async run({ service }) {
    const { url, headers } = await prepare(service, MESSAGES);
    const { bare, measured, ratio, rounds } = await againstReference(service, url, headers);
    const failed = ratio < TARGET_RATIO;
    const scenario = `messages list (${MESSAGES} messages, default page)`;
    return [
      { scenario: `${scenario} (bare node:http + pg)`, ...bare, note: `reference; best of ${rounds} rounds` },
      {
        scenario: `${scenario} (service)`,
        ...measured,
        note:
          `50 a page; best of ${rounds} rounds; ${(ratio * 100).toFixed(0)}% of the reference ` +
          `(target ≥ ${TARGET_RATIO * 100}%)${failed ? ' — MISSED' : ''}`,
        failed,
      },
    ];
  },
};

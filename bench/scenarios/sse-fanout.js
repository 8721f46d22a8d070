/**
 * 5,000 SSE subscribers of one conversation on one service process receive one posted message.
 * Delivery, per subscriber: from just before the POST is sent to the arrival of the event's bytes
 * at that subscriber (both instants on this process's monotonic clock). Target: p99 < 250 ms.
 * The streams go to a second service process on the bench's database, stopped afterwards, so the
 * memory they leave behind does not flatter the scenarios measured after this one.
 */
const { performance } = require('node:perf_hooks');
const { conversation, startService, userMessage } = require('../harness');
const {
  checkOpenFiles,
  parseEvent,
  percentile,
  streamAgent,
  subscribe,
  subscribeMany,
  unopenedRow,
  until,
} = require('../sse');

const SUBSCRIBERS = 5000;
const SCENARIO = `sse fan-out (${SUBSCRIBERS} subscribers, 1 process)`;
const BATCH = 250;
const TARGET_P99_MS = 250;
const SETTLE_MS = 3_000;
const DELIVERY_TIMEOUT_MS = 10_000;
/** Descriptors beyond the streams: database connections, files, the POST's socket… */
const SPARE_FILES = 500;

/** Opens the streams on `service`, posts the message and reads each subscriber's delivery. */
async function measure(service, { wId, cId, secret, headers }, agent) {
  const conversationUrl = `${service.baseUrl}/api/w/${wId}/assistant/conversations/${cId}`;
  const streamUrl = `${service.baseUrl}/api/sse/w/${wId}/assistant/conversations/${cId}/events`;
  const post = (content) =>
    fetch(`${conversationUrl}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify(userMessage(content)),
    });
  // A first message warms the posting path of the fresh process; the streams start after it.
  const warmUp = await post('Warm-up');
  if (!warmUp.ok) throw new Error(`Posting the warm-up message failed: ${warmUp.status}`);
  let received = 0;
  const opening = performance.now();
  const { subscribers, failure } = await subscribeMany(SUBSCRIBERS, BATCH, () =>
    subscribe(streamUrl, { Authorization: `Bearer ${secret}` }, agent, (subscriber) => {
      if (subscriber.events.length === 1) received += 1;
    }),
  );
  const openSeconds = (performance.now() - opening) / 1000;
  try {
    if (failure) return [unopenedRow(SCENARIO, failure)];
    // Let the streams' first reads of the log finish before the measured message.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const early = received;
    const started = performance.now();
    const res = await post('Fan-out');
    const answeredMs = performance.now() - started;
    if (!res.ok) throw new Error(`Posting the message failed: ${res.status} ${await res.text()}`);
    const { message } = await res.json();
    await until(() => received === SUBSCRIBERS, DELIVERY_TIMEOUT_MS);

    const delays = [];
    for (const subscriber of subscribers) {
      const first = subscriber.events[0];
      if (!first) continue;
      const { data } = parseEvent(first.block);
      if (data.type === 'user_message_new' && data.messageId === message.sId) delays.push(first.at - started);
    }
    delays.sort((a, b) => a - b);
    const missed = SUBSCRIBERS - delays.length;
    const cut = subscribers.filter((subscriber) => subscriber.closed).length;
    const [p50, p99, max] = [50, 99, 100].map((p) => Math.round(percentile(delays, p)));
    const failed = missed > 0 || early > 0 || !(p99 < TARGET_P99_MS);
    return [
      {
        scenario: SCENARIO,
        rps: '-',
        p50,
        p99,
        errors: missed,
        note:
          `delivery p99 ${p99} ms (target < ${TARGET_P99_MS}), max ${max} ms; POST answered in ` +
          `${Math.round(answeredMs)} ms; streams opened in ${openSeconds.toFixed(1)} s` +
          `${missed > 0 ? `; ${missed} did not get the message within ${DELIVERY_TIMEOUT_MS / 1000} s` : ''}` +
          `${cut > 0 ? `; the service ended ${cut} streams` : ''}` +
          `${early > 0 ? `; ${early} got an event before the POST` : ''}${failed ? ' — MISSED' : ''}`,
        failed,
      },
    ];
  } finally {
    for (const subscriber of subscribers) subscriber.close();
  }
}

module.exports = {
  name: 'sse-fanout',
  async run({ service }) {
    const { wId, cId, secret, headers } = await conversation(service, 'SSE fan-out bench');
    // One key holds every stream: the per-key and per-workspace caps are raised for the run.
    const fanout = await startService({
      env: { SSE_MAX_KEY_STREAMS: String(SUBSCRIBERS), SSE_MAX_WORKSPACE_STREAMS: String(SUBSCRIBERS) },
      dataDir: service.dataDir,
    });
    const agent = streamAgent();
    try {
      checkOpenFiles([process.pid, fanout.pid], SUBSCRIBERS + SPARE_FILES);
      return await measure(fanout, { wId, cId, secret, headers }, agent);
    } finally {
      agent.destroy();
      await fanout.stop();
    }
  },
};

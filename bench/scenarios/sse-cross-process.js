/**
 * Delivery across processes: one subscriber on the bench's service process (A) while 200 messages
 * are posted, one after another, through a second process (B) on the same database. Latency, per
 * message: from just before its POST is sent to B to the arrival of its event's bytes from A (one
 * clock, this process's). Target: p50 < 50 ms. As the POST's own work before its commit counts
 * in that figure, the note also gives the time from the commit's notification (received here on a
 * LISTEN connection of the bench, as process A receives it) to the arrival of the event.
 */
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { conversation, startService, userMessage } = require('../harness');
const {
  parseEvent,
  percentile,
  streamAgent,
  subscribe,
  subscribeMany,
  unopenedRow,
  until,
} = require('../sse');

const MESSAGES = 200;
const SCENARIO = `sse cross-process (${MESSAGES} messages)`;
const TARGET_P50_MS = 50;
const DELIVERY_TIMEOUT_MS = 10_000;

module.exports = {
  name: 'sse-cross-process',
  async run({ service }) {
    const { wId, cId, secret, headers } = await conversation(service, 'SSE cross-process bench');
    const writer = await startService({ dataDir: service.dataDir });
    const agent = streamAgent();
    const listener = new Client(databaseConfig(service.dataDir));
    /** performance.now() when each event's notification arrived, by event id. */
    const notified = new Map();
    listener.on('notification', ({ payload }) =>
      notified.set(String(JSON.parse(payload).id), performance.now()),
    );
    try {
      await listener.connect();
      await listener.query('LISTEN conversation_events');
      const {
        subscribers: [subscriber],
        failure,
      } = await subscribeMany(1, 1, () =>
        subscribe(
          `${service.baseUrl}/api/sse/w/${wId}/assistant/conversations/${cId}/events`,
          { Authorization: `Bearer ${secret}` },
          agent,
        ),
      );
      if (failure) return [unopenedRow(SCENARIO, failure)];
      const delays = [];
      const afterNotify = [];
      const roundTrips = [];
      /** The message that did not arrive in time, after which none was sent. */
      let stoppedAt = null;
      for (let i = 0; i < MESSAGES; i++) {
        const started = performance.now();
        const res = await fetch(`${writer.baseUrl}/api/w/${wId}/assistant/conversations/${cId}/messages`, {
          method: 'POST',
          headers,
          body: JSON.stringify(userMessage(`Cross-process ${i}`)),
        });
        roundTrips.push(performance.now() - started);
        if (!res.ok) throw new Error(`Posting message ${i} failed: ${res.status} ${await res.text()}`);
        const { message } = await res.json();
        // Each message is the only event until the next POST: it is event i of the stream.
        if (!(await until(() => subscriber.events.length > i, DELIVERY_TIMEOUT_MS, 1))) {
          stoppedAt = i;
          break;
        }
        const { at, block } = subscriber.events[i];
        const { id, data } = parseEvent(block);
        if (data.type !== 'user_message_new' || data.messageId !== message.sId) {
          throw new Error(`Event ${i} is ${data.type} ${data.messageId}, expected message ${message.sId}`);
        }
        delays.push(at - started);
        if (notified.has(id)) afterNotify.push(at - notified.get(id));
      }
      delays.sort((a, b) => a - b);
      roundTrips.sort((a, b) => a - b);
      afterNotify.sort((a, b) => a - b);
      const [p50, p99] = [50, 99].map((p) => Math.round(percentile(delays, p)));
      const failed = stoppedAt !== null || !(p50 < TARGET_P50_MS);
      return [
        {
          scenario: SCENARIO,
          rps: '-',
          p50,
          p99,
          errors: stoppedAt === null ? 0 : MESSAGES - stoppedAt,
          note:
            `delivery p50 ${p50} ms (target < ${TARGET_P50_MS}); POST round trip p50 ` +
            `${Math.round(percentile(roundTrips, 50))} ms; from the notification p50 ` +
            `${percentile(afterNotify, 50).toFixed(1)} ms, p99 ${percentile(afterNotify, 99).toFixed(1)} ms` +
            `${stoppedAt === null ? '' : `; message ${stoppedAt} not delivered within ${DELIVERY_TIMEOUT_MS / 1000} s, the rest not sent`}` +
            `${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      agent.destroy();
      await listener.end();
      await writer.stop();
    }
  },
};

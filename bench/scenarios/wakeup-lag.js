/**
 * 1,000 one-shot wake-ups due at the same instant, each in its own conversation, seeded through
 * the API. Lag, per wake-up: the created time of its system message (origin `wakeup`) minus its
 * fireAt. Target: p99 < 2 s, and every wake-up fired exactly once. The note also gives the lag to
 * the commit's notification of the message's `user_message_new` event, received here on a LISTEN
 * connection (so a message stamped early in a long transaction cannot flatter the figure).
 */
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson, seed } = require('../harness');
const { percentile } = require('../sse');

const WAKE_UPS = 1000;
const SEED_CONCURRENCY = 16;
const TARGET_P99_MS = 2000;
/** Wake-ups still unfired this long after their due time make the row a miss. */
const FIRING_TIMEOUT_MS = 120_000;
/**
 * fireAt, from the end of the conversations' seeding: twice that seeding's time (a wake-up costs
 * the service about as much as a conversation) plus a margin.
 */
const LEAD_FACTOR = 2;
const LEAD_MARGIN_MS = 10_000;
/** Seeding must end at least this long before fireAt, so the scheduler starts from idle. */
const MIN_QUIET_MS = 2_000;
/** How long to wait, once all have fired, for the notifications of the last commits. */
const NOTIFY_SETTLE_MS = 5_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
  name: 'wakeup-lag',
  /** One key sends the seeding requests as fast as the service answers them. */
  env: { RATE_LIMIT_REQUESTS: '0' },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Wake-up bench');
    const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
    const base = `${service.baseUrl}/api/w/${workspace.sId}`;
    const globals = await fetch(`${base}/assistant/agent_configurations?view=global`, { headers }).then(
      (res) => res.json(),
    );
    const assistant = globals.agentConfigurations.find((agent) => agent.name === 'assistant').sId;

    // One conversation per wake-up: a conversation holds at most one scheduled wake-up.
    const seedingStarted = Date.now();
    const conversations = new Array(WAKE_UPS);
    let next = 0;
    await Promise.all(
      Array.from({ length: SEED_CONCURRENCY }, async () => {
        while (next < WAKE_UPS) {
          const i = next++;
          const { conversation } = await fetchJson(`${base}/assistant/conversations`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ title: `Wake-up ${i}` }),
          });
          conversations[i] = conversation.sId;
        }
      }),
    );
    const conversationsMs = Date.now() - seedingStarted;
    // The API only takes a fireAt in the future: far enough ahead for the wake-ups' own seeding.
    const fireAt = Date.now() + LEAD_FACTOR * conversationsMs + LEAD_MARGIN_MS;
    await seed(WAKE_UPS, SEED_CONCURRENCY, (i) => ({
      url: `${base}/assistant/conversations/${conversations[i]}/wakeups`,
      init: {
        method: 'POST',
        headers,
        body: JSON.stringify({
          agentConfigurationId: assistant,
          scheduleConfig: { type: 'one_shot', fireAt },
          reason: `Bench wake-up ${i}`,
        }),
      },
    }));
    const seedingMs = Date.now() - seedingStarted;
    if (Date.now() > fireAt - MIN_QUIET_MS) {
      throw new Error(`Seeding ended ${Date.now() - fireAt} ms relative to fireAt: raise LEAD_FACTOR`);
    }

    const db = new Client(databaseConfig(service.dataDir));
    /** Date.now() when each event's notification arrived, by event id. */
    const notified = new Map();
    db.on('notification', ({ payload }) => notified.set(String(JSON.parse(payload).id), Date.now()));
    try {
      await db.connect();
      await db.query('LISTEN conversation_events');
      const {
        rows: [{ id: workspaceId }],
      } = await db.query('SELECT id FROM workspaces WHERE s_id = $1', [workspace.sId]);
      const deadline = fireAt + FIRING_TIMEOUT_MS;
      let pending = WAKE_UPS;
      let allFiredAt = null;
      await sleep(Math.max(0, fireAt - Date.now()));
      while (Date.now() < deadline) {
        const { rows } = await db.query(
          "SELECT count(*)::int AS n FROM wakeups WHERE workspace_id = $1 AND status = 'scheduled'",
          [workspaceId],
        );
        pending = rows[0].n;
        if (pending === 0) {
          allFiredAt = Date.now();
          break;
        }
        await sleep(250);
      }

      // Per wake-up: its state, its system messages and, for the first, the lag and its event.
      const { rows } = await db.query(
        `SELECT w.status, w.fire_count,
                count(m.id)::int AS messages,
                extract(epoch FROM min(m.created_at) - w.fire_at) * 1000 AS lag_ms,
                extract(epoch FROM w.fire_at) * 1000 AS fire_at_ms,
                (SELECT min(e.id)::text FROM conversation_events e
                  WHERE e.conversation_id = w.conversation_id AND e.type = 'user_message_new'
                    AND e.payload->>'messageId' = min(m.s_id)) AS event_id
           FROM wakeups w
           LEFT JOIN messages m ON m.conversation_id = w.conversation_id AND m.type = 'user_message'
                                AND m.context->>'origin' = 'wakeup'
          WHERE w.workspace_id = $1
          GROUP BY w.id`,
        [workspaceId],
      );
      const firedOnce = rows.filter(
        (row) => row.status === 'fired' && row.fire_count === 1 && row.messages === 1,
      );
      // A commit's notifications are sent after it, so the last ones may still be on their way.
      const settled = Date.now() + NOTIFY_SETTLE_MS;
      while (firedOnce.some((row) => !notified.has(row.event_id)) && Date.now() < settled) await sleep(50);
      const lags = firedOnce.map((row) => Number(row.lag_ms)).sort((a, b) => a - b);
      const seen = firedOnce
        .filter((row) => notified.has(row.event_id))
        .map((row) => notified.get(row.event_id) - Number(row.fire_at_ms))
        .sort((a, b) => a - b);
      const errors = WAKE_UPS - firedOnce.length;
      const [p50, p99] = [50, 99].map((p) => Math.round(percentile(lags, p)));
      const max = Math.round(lags[lags.length - 1] ?? NaN);
      const failed = errors > 0 || !(p99 < TARGET_P99_MS);
      return [
        {
          scenario: `wakeup lag (${WAKE_UPS.toLocaleString('en')} due at once)`,
          rps: allFiredAt === null ? '-' : Math.round(WAKE_UPS / ((allFiredAt - fireAt) / 1000)),
          p50,
          p99,
          errors,
          note:
            `lag from fireAt to the system message's created time, p99 target < ${TARGET_P99_MS} ms; ` +
            `max ${max} ms; ${firedOnce.length} of ${WAKE_UPS} fired exactly once` +
            `${pending > 0 ? ` (${pending} still scheduled after ${FIRING_TIMEOUT_MS / 1000} s)` : ''}; ` +
            `to the commit's notification p50 ${Math.round(percentile(seen, 50))} ms, ` +
            `p99 ${Math.round(percentile(seen, 99))} ms (${seen.length} seen); ` +
            `req/s: wake-ups fired a second (all done when polled); seeding took ${(seedingMs / 1000).toFixed(1)} s` +
            `${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      await db.end();
    }
  },
};

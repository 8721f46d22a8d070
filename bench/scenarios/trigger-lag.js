/**
 * 1,000 schedules due at the same instant, on 20 agents, seeded through the API (cron `0 9 * * *`)
 * and then all made due at one instant a few seconds ahead by one UPDATE (a cron time is a whole
 * minute, and the scenario should not wait for one). The UPDATE goes behind the service's back, so
 * the instant lies further ahead than the service's longest sleep between looks at its next due
 * time (5 s): as a real schedule's does, whose next time is known minutes ahead. Lag, per
 * schedule: the created time of its conversation's first message minus the due time. Target: p99 < 2 s, and every schedule fired
 * exactly once (one succeeded firing, one conversation).
 */
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson } = require('../harness');
const { percentile } = require('../sse');

const AGENTS = 20;
const PER_AGENT = 50;
const TRIGGERS = AGENTS * PER_AGENT;
const TARGET_P99_MS = 2000;
/** The scheduler's longest sleep (MAX_SLEEP_MS of src/platform/scheduling/due-work-loop.ts) and 1 s. */
const LEAD_MS = 6_000;
const FIRING_TIMEOUT_MS = 180_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
  name: 'trigger-lag',
  env: { RATE_LIMIT_REQUESTS: '0', TRIGGERS_MAX_PER_AGENT: String(PER_AGENT) },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Trigger bench');
    const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
    const base = `${service.baseUrl}/api/w/${workspace.sId}`;
    const seedingStarted = Date.now();
    for (let a = 0; a < AGENTS; a += 1) {
      const { agentConfiguration } = await fetchJson(`${base}/assistant/agent_configurations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          assistant: {
            name: `bench-agent-${a}`,
            description: 'Bench',
            instructions: 'Be brief.',
            scope: 'visible',
            model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
          },
        }),
      });
      await fetchJson(`${base}/assistant/agent_configurations/${agentConfiguration.sId}/triggers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          triggers: Array.from({ length: PER_AGENT }, (_, i) => ({
            name: `Bench ${a}-${i}`,
            kind: 'schedule',
            customPrompt: 'Summarise the day.',
            configuration: { cron: '0 9 * * *', timezone: 'UTC' },
          })),
        }),
      });
    }
    const seedingMs = Date.now() - seedingStarted;

    const db = new Client(databaseConfig(service.dataDir));
    try {
      await db.connect();
      const dueAt = new Date(Date.now() + LEAD_MS);
      await db.query('UPDATE triggers SET next_fire_at = $1', [dueAt]);
      const deadline = dueAt.getTime() + FIRING_TIMEOUT_MS;
      let allFiredAt = null;
      let fired = 0;
      await sleep(LEAD_MS);
      while (Date.now() < deadline) {
        const { rows } = await db.query('SELECT count(*)::int AS n FROM trigger_firings');
        fired = rows[0].n;
        if (fired >= TRIGGERS) {
          allFiredAt = Date.now();
          break;
        }
        await sleep(250);
      }
      const { rows } = await db.query(
        `SELECT t.s_id,
                (SELECT count(*)::int FROM trigger_firings f WHERE f.trigger_id = t.id AND f.status = 'succeeded') AS firings,
                (SELECT count(*)::int FROM conversations c WHERE c.trigger_id = t.s_id) AS conversations,
                (SELECT extract(epoch FROM min(m.created_at) - $1::timestamptz) * 1000 FROM messages m
                   JOIN conversations c ON c.id = m.conversation_id
                  WHERE c.trigger_id = t.s_id AND m.type = 'user_message') AS lag_ms
           FROM triggers t`,
        [dueAt],
      );
      const once = rows.filter((row) => row.firings === 1 && row.conversations === 1);
      const lags = once.map((row) => Number(row.lag_ms)).sort((x, y) => x - y);
      const errors = TRIGGERS - once.length;
      const [p50, p99] = [50, 99].map((p) => Math.round(percentile(lags, p)));
      const failed = errors > 0 || !(p99 < TARGET_P99_MS);
      return [
        {
          scenario: `trigger lag (${TRIGGERS.toLocaleString('en')} due at once)`,
          rps: allFiredAt === null ? '-' : Math.round(TRIGGERS / ((allFiredAt - dueAt.getTime()) / 1000)),
          p50,
          p99,
          errors,
          note:
            `lag from the due time to the first message's created time, p99 target < ${TARGET_P99_MS} ms; ` +
            `${once.length} of ${TRIGGERS} fired exactly once; req/s: schedules fired a second; ` +
            `seeding took ${(seedingMs / 1000).toFixed(1)} s${failed ? ' — MISSED' : ''}`,
          failed,
        },
      ];
    } finally {
      await db.end();
    }
  },
};

/**
 * Signed GitHub-style webhook deliveries at 200 a second (autocannon's overall rate, 16
 * connections, 2 s warm-up then 10 s measured), each with its own delivery id and signature, to a
 * source two webhook triggers listen to: one for another event (every delivery is processed and
 * recorded `not_matched`), one whose filter matches one payload in 100 (those open a conversation
 * with the built-in model, up to its 42 a day, then `rate_limited`). Latency is the acknowledgment
 * (202); the processing runs after it. Target: 200/s sustained with p99 < 50 ms, every delivery
 * stored once; the note adds how long the worker took to process the backlog after the load.
 */
const autocannon = require('autocannon');
const { createHmac } = require('node:crypto');
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson } = require('../harness');

const RATE = 200;
const DURATION_S = 10;
const TARGET_P99_MS = 50;
const DRAIN_TIMEOUT_MS = 120_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
  name: 'webhooks',
  env: { RATE_LIMIT_REQUESTS: '0', WEBHOOK_SOURCE_REQUESTS_PER_MINUTE: '1000000' },
  async run({ service }) {
    const { workspace, apiKey } = await bootstrap(service, 'Webhook bench');
    const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
    const base = `${service.baseUrl}/api/w/${workspace.sId}`;
    const { webhookSource: source } = await fetchJson(`${base}/webhook_sources`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Bench GitHub', provider: 'github', includeGlobal: true }),
    });
    const { agentConfiguration } = await fetchJson(`${base}/assistant/agent_configurations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        assistant: {
          name: 'bench-reviewer',
          description: 'Bench',
          instructions: 'Be brief.',
          scope: 'visible',
          model: { providerId: 'local', modelId: 'local-1', temperature: 0 },
        },
      }),
    });
    const webhookSourceViewSId = source.views[0].sId;
    await fetchJson(`${base}/assistant/agent_configurations/${agentConfiguration.sId}/triggers`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        triggers: [
          {
            name: 'Releases',
            kind: 'webhook',
            customPrompt: 'Summarise the release.',
            configuration: { includePayload: true, event: 'release' },
            webhookSourceViewSId,
          },
          {
            name: 'Opened pull requests',
            kind: 'webhook',
            customPrompt: 'Review the pull request.',
            configuration: { includePayload: true, event: 'pull_request', filter: '$.action == "opened"' },
            webhookSourceViewSId,
          },
        ],
      }),
    });

    let next = 0;
    const sign = (body) => `sha256=${createHmac('sha256', source.secret).update(body).digest('hex')}`;
    const options = (duration) => ({
      url: `${service.baseUrl}${source.url}`,
      method: 'POST',
      connections: 16,
      overallRate: RATE,
      duration,
      requests: [
        {
          setupRequest: (request) => {
            const n = next++;
            const body = JSON.stringify({
              action: n % 100 === 0 ? 'opened' : 'synchronize',
              number: n,
              pull_request: { title: `Change ${n}`, draft: false, additions: n % 500 },
              repository: { full_name: 'acme/api' },
            });
            return {
              ...request,
              body,
              headers: {
                'Content-Type': 'application/json',
                'X-GitHub-Event': 'pull_request',
                'X-GitHub-Delivery': `bench-${n}`,
                'X-Hub-Signature-256': sign(body),
              },
            };
          },
        },
      ],
    });
    await autocannon(options(2));
    const result = await autocannon(options(DURATION_S));
    const loadEnded = Date.now();

    const db = new Client(databaseConfig(service.dataDir));
    try {
      await db.connect();
      let pending = -1;
      while (Date.now() - loadEnded < DRAIN_TIMEOUT_MS) {
        pending = (
          await db.query("SELECT count(*)::int AS n FROM webhook_requests WHERE status = 'received'")
        ).rows[0].n;
        if (pending === 0) break;
        await sleep(250);
      }
      const drainedMs = Date.now() - loadEnded;
      const { rows } = await db.query(
        `SELECT (SELECT count(*)::int FROM webhook_requests) AS stored,
                (SELECT count(*)::int FROM webhook_request_triggers) AS outcomes,
                (SELECT count(*)::int FROM conversations WHERE trigger_id IS NOT NULL) AS conversations`,
      );
      const { stored, outcomes, conversations } = rows[0];
      const rps = Math.round(result.requests.average);
      const errors = result.errors + result.timeouts + (result.non2xx ?? 0);
      const p99 = result.latency.p99;
      const failed = errors > 0 || stored !== next || rps < RATE * 0.95 || !(p99 < TARGET_P99_MS);
      return [
        {
          scenario: `webhooks (${RATE}/s signed deliveries)`,
          rps,
          p50: result.latency.p50,
          p99,
          errors,
          note:
            `202 acknowledgment, target ${RATE}/s with p99 < ${TARGET_P99_MS} ms; ${stored} of ${next} deliveries stored, ` +
            `${outcomes} trigger outcomes, ${conversations} conversations opened; backlog ` +
            (pending === 0
              ? `processed ${(drainedMs / 1000).toFixed(1)} s after the load`
              : `of ${pending} left`) +
            (failed ? ' — MISSED' : ''),
          failed,
        },
      ];
    } finally {
      await db.end();
    }
  },
};

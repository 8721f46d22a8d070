/**
 * Signed GitHub-style webhook deliveries arriving at 200 a second (an open loop: independent
 * senders, so exponential gaps between deliveries, 2 s warm-up then 10 s measured), each with its
 * own delivery id and signature, to a source two webhook triggers listen to: one for another event
 * (every delivery is processed and recorded `not_matched`), one whose filter matches one payload in
 * 100 (those open a conversation with the built-in model, up to its 42 a day, then
 * `rate_limited`). Latency is the acknowledgment (202), from the moment a delivery was due to be
 * sent, so a sender held up behind slow answers counts; the processing runs after it. Target: 200/s
 * sustained with p99 < 50 ms, every delivery stored once; the note adds how long the worker took
 * to process the backlog after the load.
 */
const { createHmac } = require('node:crypto');
const { Agent, request } = require('node:http');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson } = require('../harness');
const { percentile } = require('../sse');

const RATE = 200;
const DURATION_S = 10;
const TARGET_P99_MS = 50;
const DRAIN_TIMEOUT_MS = 120_000;
/** Sockets the senders share; a delivery due while all are busy waits, and that wait is counted. */
const SOCKETS = 64;

/** POSTs `body` with `headers`; resolves the status (0 when the request failed). */
function post(url, agent, body, headers) {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
    });
    req.once('error', () => resolve(0));
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode));
    });
    req.end(body);
  });
}

/**
 * Calls `send()` at `rate` a second on average for `seconds`, each call due after an exponential
 * gap; resolves each one's latency from its due time to its answer, and the failures.
 */
async function openLoop({ rate, seconds, send }) {
  const latencies = [];
  let errors = 0;
  const pending = [];
  const started = performance.now();
  let due = started;
  for (;;) {
    due += -Math.log(1 - Math.random()) * (1000 / rate);
    if (due - started >= seconds * 1000) break;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const dueAt = due;
    pending.push(
      send().then((status) => {
        if (status === 202) latencies.push(performance.now() - dueAt);
        else errors += 1;
      }),
    );
  }
  await Promise.all(pending);
  return { latencies: Float64Array.from(latencies).sort(), errors, seconds };
}

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
    const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
    const url = `${service.baseUrl}${source.url}`;
    const send = () => {
      const n = next++;
      const body = JSON.stringify({
        action: n % 100 === 0 ? 'opened' : 'synchronize',
        number: n,
        pull_request: { title: `Change ${n}`, draft: false, additions: n % 500 },
        repository: { full_name: 'acme/api' },
      });
      return post(url, agent, body, {
        'Content-Type': 'application/json',
        'X-GitHub-Event': 'pull_request',
        'X-GitHub-Delivery': `bench-${n}`,
        'X-Hub-Signature-256': sign(body),
      });
    };
    await openLoop({ rate: RATE, seconds: 2, send });
    const result = await openLoop({ rate: RATE, seconds: DURATION_S, send });
    agent.destroy();
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
                (SELECT count(*)::int FROM conversations c JOIN workspaces w ON w.id = c.workspace_id
                  WHERE c.trigger_id IS NOT NULL AND w.s_id = $1) AS conversations`,
        [workspace.sId],
      );
      const { stored, outcomes, conversations } = rows[0];
      const rps = Math.round(result.latencies.length / result.seconds);
      const errors = result.errors;
      const [p50, p99] = [50, 99].map((p) => Math.round(percentile(result.latencies, p) * 10) / 10);
      const failed = errors > 0 || stored !== next || !(p99 < TARGET_P99_MS);
      return [
        {
          scenario: `webhooks (${RATE}/s signed deliveries)`,
          rps,
          p50,
          p99,
          errors,
          note:
            `202 acknowledgment from the due time, deliveries due at ${RATE}/s with exponential gaps, p99 target < ${TARGET_P99_MS} ms; ` +
            `${stored} of ${next} deliveries stored, ` +
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

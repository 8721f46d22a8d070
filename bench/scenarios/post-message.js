/**
 * POST a user message (endpoint 1's message route) at 32 connections, without mention and with one
 * mention of the built-in `assistant`, spread over 32 conversations, on a second service process
 * started for the scenario (its agent runs stop with it). The note gives the SQL queries a post
 * makes, counted by bench/query-counter.js in that process over 20 posts made one at a time.
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { bootstrap, fetchJson, load, queryCounters, startService, userMessage } = require('../harness');

const CONVERSATIONS = 32;
/** Posts counted one at a time: under load a query waiting for a pool connection may resume outside its request. */
const COUNTED = 20;

module.exports = {
  name: 'post-message',
  async run({ service }) {
    const reportDir = mkdtempSync(join(tmpdir(), 'wa-bench-queries-'));
    const report = join(reportDir, 'queries.json');
    const measured = await startService({
      // The per-key limiter stays on but never refuses the load; answers are generated without delay.
      env: { BENCH_QUERY_REPORT: report, RATE_LIMIT_REQUESTS: '1000000000', LOCAL_MODEL_CHUNK_DELAY_MS: '0' },
      dataDir: service.dataDir,
      nodeArgs: ['--require', join(__dirname, '..', 'query-counter.js')],
    });
    try {
      const { workspace, apiKey } = await bootstrap(service, 'Post bench');
      const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
      const base = `${measured.baseUrl}/api/w/${workspace.sId}/assistant`;
      const { agentConfigurations } = await fetchJson(`${base}/agent_configurations?view=global`, {
        headers,
      });
      const assistant = agentConfigurations.find((agent) => agent.name === 'assistant').sId;
      const paths = [];
      for (let i = 0; i < CONVERSATIONS; i++) {
        const { conversation } = await fetchJson(`${base}/conversations`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ title: `Posts ${i}` }),
        });
        paths.push(new URL(`${base}/conversations/${conversation.sId}/messages`).pathname);
      }
      // A post of the built-in assistant reads fewer agent rows than one of a custom agent: the exact
      // counts, and those before the post read what it needs once (12 and 27), are in
      // test/e2e/conversations/message-post-queries. Both cases are counted before any load: requests a load
      // leaves in flight would add their queries to the count.
      const cases = [
        { label: 'no mention', mentions: [], maxQueries: 9.5 },
        { label: 'one mention', mentions: [{ configurationId: assistant }], maxQueries: 10.5 },
      ].map((c) => ({
        ...c,
        body: JSON.stringify({ ...userMessage('How are things going?'), mentions: c.mentions }),
      }));
      for (const c of cases) {
        const before = await queryCounters(measured.pid, report);
        for (let i = 0; i < COUNTED; i++) {
          await fetchJson(`${measured.baseUrl}${paths[i % paths.length]}`, {
            method: 'POST',
            headers,
            body: c.body,
          });
        }
        const after = await queryCounters(measured.pid, report);
        c.perPost = (after.queries - before.queries) / (after.requests - before.requests);
      }
      const rows = [];
      for (const { label, body, maxQueries, perPost } of cases) {
        let next = 0;
        const result = await load({
          url: measured.baseUrl,
          headers,
          method: 'POST',
          body,
          requests: [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }],
        });
        const failed = perPost > maxQueries;
        rows.push({
          scenario: `post message (${label})`,
          ...result,
          failed,
          note: `${perPost.toFixed(1)} SQL queries a post (target ≤ ${maxQueries}${failed ? ' — MISSED' : ''}); ${CONVERSATIONS} conversations`,
        });
      }
      return rows;
    } finally {
      await measured.stop();
      rmSync(reportDir, { recursive: true, force: true });
    }
  },
};

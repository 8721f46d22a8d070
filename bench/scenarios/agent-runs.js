/**
 * 200 agent runs streaming at once: an OpenAI-compatible fake model on loopback (in this process)
 * streams a 500-token answer at 50 tokens a second to each run; 200 messages mentioning an agent
 * on that model are posted at once, one in each of 200 conversations, each conversation with one
 * SSE subscriber. Measured on a service process of its own (on its own PostgreSQL: another process
 * on the database would take some of the queued answers): tokens delivered a second, delivery lag
 * from the model's chunk to the subscriber, the service's CPU per 1,000 tokens, SQL statements and
 * WAL bytes written per token and per flush, runs finished and lost, every stream's text against
 * the model's. First, post to first token: one message at a time, the fake answering at once.
 */
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, cpuSeconds, fetchJson, queryCounters, seed, startService } = require('../harness');
const {
  parseEvent,
  percentile,
  streamAgent,
  subscribe,
  subscribeMany,
  unopenedRow,
  until,
} = require('../sse');

const RUNS = 200;
const TOKENS = 500;
const TOKEN_INTERVAL_MS = 20; // 50 tokens a second per run
const FIRST_TOKEN_POSTS = 40;
const FIRST_TOKEN_ANSWER = 10; // tokens of each post-to-first-token answer, streamed at once
const RUN_TIMEOUT_MS = 90_000;
const TARGET_LAG_P99_MS = 250;
const TARGET_CPU_PER_1000 = 0.1;
const TARGET_STATEMENTS_PER_TOKEN = 0.05;
const TARGET_FIRST_P50_MS = 30;
const TARGET_FIRST_P99_MS = 100;
const WORDS = ['the', 'run', 'of', 'a', 'model', 'streams', 'token', 'by', 'and', 'so', 'on', 'it', 'goes'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer of run `n`, as tokens: its first names it, so a stream carrying another's text shows. */
function answerTokens(n, count) {
  return Array.from({ length: count }, (_, k) =>
    k === 0 ? `[${n}]` : ` ${WORDS[(n * 7 + k * 13) % WORDS.length]}`,
  );
}

/**
 * The fake model: reads the run's number from the last user message (`#<n>`), streams its tokens
 * one every TOKEN_INTERVAL_MS (the first at once, `!` in the message: all at once), each chunk's
 * write time kept, then the usage (the provider asks for it) and `[DONE]`.
 */
function fakeModel() {
  const sent = new Map(); // run number → write time of each token (performance.now())
  const streams = new Set();
  let usageAsked = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    for (const stream of streams) stream.catchUp(now);
  }, 5);
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const asked = [...body.messages].reverse().find((message) => message.role === 'user');
    const text = typeof asked.content === 'string' ? asked.content : JSON.stringify(asked.content);
    const n = Number(/#(\d+)/.exec(text)[1]);
    const burst = text.includes('!');
    const tokens = answerTokens(n, burst ? FIRST_TOKEN_ANSWER : TOKENS);
    const times = new Float64Array(tokens.length);
    sent.set(n, times);
    if (body.stream_options?.include_usage) usageAsked += 1;
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const started = performance.now();
    let next = 0;
    const write = (k) => {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: tokens[k] } }] })}\n\n`);
      times[k] = performance.now();
    };
    const stream = {
      catchUp(now) {
        while (next < tokens.length && (burst || started + next * TOKEN_INTERVAL_MS <= now)) write(next++);
        if (next < tokens.length) return;
        streams.delete(stream);
        res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: 'stop' }] })}\n\n`);
        if (body.stream_options?.include_usage) {
          const usage = {
            prompt_tokens: 20,
            completion_tokens: tokens.length,
            total_tokens: 20 + tokens.length,
          };
          res.write(`data: ${JSON.stringify({ choices: [], usage })}\n\n`);
        }
        res.end('data: [DONE]\n\n');
      },
    };
    streams.add(stream);
    stream.catchUp(performance.now());
  });
  return {
    sent,
    usageAsked: () => usageAsked,
    start: () =>
      new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/v1`)),
      ),
    stop: () => {
      clearInterval(tick);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** WAL position and the database's row counters (the latter lag up to a second: read after a pause). */
async function databaseCounters(db) {
  const { rows } = await db.query(
    `SELECT pg_current_wal_lsn()::text AS lsn, xact_commit::bigint AS commits,
            tup_inserted::bigint AS inserted, tup_updated::bigint AS updated
     FROM pg_stat_database WHERE datname = current_database()`,
  );
  return rows[0];
}

/**
 * What a stream shows of the answer to the user message `askedSId`: its text, the arrival of each
 * event's text, its outcome (`success`, `error`, null while it runs), the agent message's sId and
 * when its `agent_message_new` arrived.
 */
function readStream(events, askedSId) {
  let text = '';
  const arrivals = []; // [end offset of the text so far, arrival time]
  let done = null;
  let answer = null;
  let startedAt = NaN;
  for (const { at, block } of events) {
    const { data } = parseEvent(block);
    if (data.type === 'agent_message_new' && data.message?.parentMessageId === askedSId) {
      answer = data.messageId;
      startedAt = at;
    }
    if (answer === null || data.messageId !== answer) continue;
    if (data.type === 'generation_tokens' && data.classification === 'tokens') {
      text += data.text;
      arrivals.push([text.length, at]);
    } else if (data.type === 'agent_message_done') done = data.status;
  }
  return { text, arrivals, done, answer, startedAt };
}

/** Per token of the model's answer, when its last character reached the subscriber (NaN: never). */
function tokenArrivals(tokens, arrivals) {
  const result = new Float64Array(tokens.length).fill(NaN);
  let end = 0;
  let a = 0;
  for (let k = 0; k < tokens.length; k++) {
    end += tokens[k].length;
    while (a < arrivals.length && arrivals[a][0] < end) a++;
    if (a < arrivals.length) result[k] = arrivals[a][1];
  }
  return result;
}

const rounded = (sorted, p) => Math.round(percentile(sorted, p));
const ascending = (values) => Float64Array.from(values).sort();

module.exports = {
  name: 'agent-runs',
  async run() {
    const model = fakeModel();
    const modelUrl = await model.start();
    const reportDir = mkdtempSync(join(tmpdir(), 'wa-bench-runs-'));
    const report = join(reportDir, 'queries.json');
    const measured = await startService({
      env: {
        OPENAI_BASE_URL: modelUrl,
        OPENAI_API_KEY: 'bench',
        RUN_CONCURRENCY: String(RUNS * 2),
        RATE_LIMIT_REQUESTS: '0',
        SSE_MAX_KEY_STREAMS: String(RUNS * 2),
        SSE_MAX_WORKSPACE_STREAMS: String(RUNS * 2),
        BENCH_QUERY_REPORT: report,
      },
      nodeArgs: ['--require', join(__dirname, '..', 'query-counter.js')],
    });
    const agent = streamAgent();
    const db = new Client(databaseConfig(measured.dataDir));
    const subscribers = [];
    try {
      await db.connect();
      const { workspace, apiKey } = await bootstrap(measured, 'Agent runs bench');
      const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
      const base = `${measured.baseUrl}/api/w/${workspace.sId}/assistant`;
      const { agentConfiguration } = await fetchJson(`${base}/agent_configurations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          assistant: {
            name: 'bench-writer',
            description: 'Bench',
            instructions: 'Write.',
            scope: 'visible',
            model: { providerId: 'openai', modelId: 'bench-model', temperature: 0 },
          },
        }),
      });
      const conversations = new Array(RUNS + 1);
      await seed(RUNS + 1, 16, (i) => ({
        url: `${base}/conversations`,
        init: { method: 'POST', headers, body: JSON.stringify({ title: `Run ${i}` }) },
      }));
      // seed() keeps no bodies: the conversations are read back.
      const listed = await db.query(
        `SELECT s_id FROM conversations WHERE workspace_id = (SELECT id FROM workspaces WHERE s_id = $1)
         ORDER BY id`,
        [workspace.sId],
      );
      listed.rows.forEach((row, i) => (conversations[i] = row.s_id));
      const streamUrl = (cId) =>
        `${measured.baseUrl}/api/sse/w/${workspace.sId}/assistant/conversations/${cId}/events`;
      const post = (cId, content) =>
        fetch(`${base}/conversations/${cId}/messages`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            content,
            mentions: [{ configurationId: agentConfiguration.sId }],
            context: { username: 'bench', timezone: 'UTC' },
          }),
        });
      // Stream i follows conversation i (subscribeMany keeps the order it opens them in).
      let nextStream = 0;
      const opened = await subscribeMany(RUNS + 1, 50, () =>
        subscribe(
          streamUrl(conversations[nextStream++]),
          { Authorization: `Bearer ${apiKey.secret}` },
          agent,
        ),
      );
      subscribers.push(...opened.subscribers);
      if (opened.failure) return [unopenedRow('agent runs', opened.failure)];
      await sleep(1_000);

      // Post to first token, one post at a time on the last conversation, the model answering at once.
      const firstTokenStream = subscribers[RUNS];
      const firstTokens = [];
      for (let i = 0; i < FIRST_TOKEN_POSTS; i++) {
        const from = firstTokenStream.events.length;
        const res = await post(conversations[RUNS], `Answer at once! #${100000 + i}`);
        const answeredAt = performance.now();
        if (!res.ok) throw new Error(`Posting failed: ${res.status} ${await res.text()}`);
        const { message } = await res.json();
        const outcome = () => readStream(firstTokenStream.events.slice(from), message.sId);
        await until(() => outcome().done !== null, 10_000);
        const [first] = outcome().arrivals;
        if (first) firstTokens.push(first[1] - answeredAt);
      }

      // 200 runs at once.
      const statementsBefore = await queryCounters(measured.pid, report);
      const databaseBefore = await databaseCounters(db);
      const cpuBefore = cpuSeconds(measured.pid);
      const started = performance.now();
      const posts = await Promise.all(
        Array.from({ length: RUNS }, async (_, n) => {
          const res = await post(conversations[n], `Write your answer #${n}`);
          const answeredAt = performance.now();
          if (!res.ok) return { error: `${res.status} ${await res.text()}` };
          const { message } = await res.json();
          return { answeredAt, messageSId: message.sId };
        }),
      );
      const failedPosts = posts.filter((p) => p.error);
      if (failedPosts.length > 0)
        throw new Error(`${failedPosts.length} posts failed: ${failedPosts[0].error}`);
      // Checked from the last event of each stream only: parsing every stream on each poll would
      // take the bench process's time from the streams it measures.
      const settled = () =>
        subscribers.slice(0, RUNS).every((subscriber) => {
          const last = subscriber.events.at(-1);
          return last !== undefined && last.block.includes('"agent_message_done"');
        });
      await until(settled, RUN_TIMEOUT_MS, 250);
      const elapsedSeconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds(measured.pid) - cpuBefore;
      const statementsAfter = await queryCounters(measured.pid, report);
      await sleep(1_200);
      const databaseAfter = await databaseCounters(db);

      // Every stream against the model's text; lag per token.
      let lost = 0;
      let delivered = 0;
      let wrongStreams = 0;
      const lags = [];
      const earlyLags = [];
      const lateLags = [];
      const burstFirstTokens = [];
      const burstStarts = [];
      let lastArrival = started;
      const answers = [];
      for (let n = 0; n < RUNS; n++) {
        const tokens = answerTokens(n, TOKENS);
        const stream = readStream(subscribers[n].events, posts[n].messageSId);
        answers[n] = stream.answer;
        if (stream.done !== 'success') lost += 1;
        if (stream.text !== tokens.join('')) wrongStreams += 1;
        const sent = model.sent.get(n);
        const arrived = tokenArrivals(tokens, stream.arrivals);
        for (let k = 0; k < TOKENS; k++) {
          if (isNaN(arrived[k])) continue;
          delivered += 1;
          if (!sent) continue;
          const lag = arrived[k] - sent[k];
          lags.push(lag);
          if (k < 100) earlyLags.push(lag);
          if (k >= TOKENS - 100) lateLags.push(lag);
          lastArrival = Math.max(lastArrival, arrived[k]);
        }
        if (stream.arrivals[0]) burstFirstTokens.push(stream.arrivals[0][1] - posts[n].answeredAt);
        if (!isNaN(stream.startedAt)) burstStarts.push(stream.startedAt - posts[n].answeredAt);
      }
      const { rows: persisted } = await db.query(
        `SELECT count(*) FILTER (WHERE m.status = 'succeeded')::int AS succeeded,
                count(*) FILTER (WHERE m.content = ANY($2::text[]))::int AS exact
         FROM messages m WHERE m.s_id = ANY($1::text[])`,
        [answers.filter(Boolean), Array.from({ length: RUNS }, (_, n) => answerTokens(n, TOKENS).join(''))],
      );
      const { rows: flushes } = await db.query(
        `SELECT count(*)::int AS n FROM conversation_events WHERE type = 'generation_tokens' AND payload->>'messageId' = ANY($1::text[])`,
        [answers.filter(Boolean)],
      );
      const { rows: wal } = await db.query(
        'SELECT pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::bigint AS bytes',
        [databaseAfter.lsn, databaseBefore.lsn],
      );

      const tokensDelivered = delivered;
      const streamSeconds = (lastArrival - started) / 1000;
      const statements = statementsAfter.statements - statementsBefore.statements;
      const logReads = statementsAfter.logReads - statementsBefore.logReads;
      const requestQueries = statementsAfter.queries - statementsBefore.queries;
      // The runs' own statements: neither the 200 posts' nor the streams' reads.
      const written = statements - logReads - requestQueries;
      const events = flushes[0].n;
      const walBytes = Number(wal[0].bytes);
      const cpuPer1000 = cpu / (tokensDelivered / 1000);
      const writesPerToken = written / tokensDelivered;
      const [sortedLags, early, late] = [lags, earlyLags, lateLags].map(ascending);
      const firstSorted = ascending(firstTokens);
      const burstSorted = ascending(burstFirstTokens);
      const lagP99 = rounded(sortedLags, 99);
      const growing = rounded(late, 99) > Math.max(2 * rounded(early, 99), rounded(early, 99) + 50);
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

      const runsFailed =
        lost > 0 ||
        wrongStreams > 0 ||
        persisted[0].exact !== RUNS ||
        !(lagP99 < TARGET_LAG_P99_MS) ||
        growing ||
        !(cpuPer1000 < TARGET_CPU_PER_1000) ||
        !(writesPerToken <= TARGET_STATEMENTS_PER_TOKEN);
      const firstP50 = rounded(firstSorted, 50);
      const firstP99 = rounded(firstSorted, 99);
      const firstFailed =
        firstSorted.length < FIRST_TOKEN_POSTS ||
        !(firstP50 < TARGET_FIRST_P50_MS) ||
        !(firstP99 < TARGET_FIRST_P99_MS);
      const miss = (failed) => (failed ? ' — MISSED' : '');
      return [
        {
          scenario: `agent runs (${RUNS} at once, ${TOKENS} tokens at 50/s each)`,
          rps: `${Math.round(tokensDelivered / streamSeconds)} tokens/s`,
          p50: rounded(sortedLags, 50),
          p99: lagP99,
          errors: lost + wrongStreams,
          note:
            `delivery lag p50/p99 ${rounded(sortedLags, 50)}/${lagP99} ms (target p99 < ${TARGET_LAG_P99_MS}), ` +
            `first 100 tokens ${rounded(early, 50)}/${rounded(early, 99)} ms, last 100 ${rounded(late, 50)}/${rounded(late, 99)} ms` +
            `${growing ? ' (growing)' : ''}; ${tokensDelivered} of ${RUNS * TOKENS} tokens in ${streamSeconds.toFixed(1)} s; ` +
            `runs finished ${RUNS - lost}, lost ${lost}; streams not equal to the model's text ${wrongStreams}, ` +
            `persisted answers equal to it ${persisted[0].exact}/${RUNS}; ` +
            `CPU ${cpuPer1000.toFixed(3)} s per 1,000 tokens (target < ${TARGET_CPU_PER_1000}); ` +
            `SQL of the runs ${(written / tokensDelivered).toFixed(3)} a token (target ≤ ${TARGET_STATEMENTS_PER_TOKEN}; ${written} statements, ` +
            `${(written / events).toFixed(2)} a flush), the streams' reads of the log ${(logReads / tokensDelivered).toFixed(3)} a token, ` +
            `the posts' ${requestQueries}; ` +
            `${events} flushes (${(tokensDelivered / events).toFixed(1)} tokens each), ` +
            `${databaseAfter.commits - databaseBefore.commits} commits, ` +
            `WAL ${Math.round(walBytes / events)} B a flush (${(walBytes / 2 ** 20).toFixed(1)} MiB), rows inserted ` +
            `${databaseAfter.inserted - databaseBefore.inserted}, updated ${databaseAfter.updated - databaseBefore.updated}; ` +
            `model asked for usage ${model.usageAsked()}×; run took ${elapsedSeconds.toFixed(1)} s; load ${load}` +
            miss(runsFailed),
          failed: runsFailed,
        },
        {
          scenario: 'agent runs: post to first token',
          rps: '-',
          p50: firstP50,
          p99: firstP99,
          errors: FIRST_TOKEN_POSTS - firstSorted.length,
          note:
            `POST answered → first generation_tokens on the stream, ${firstSorted.length} posts one at a time ` +
            `(target p50 < ${TARGET_FIRST_P50_MS}, p99 < ${TARGET_FIRST_P99_MS}); during the ${RUNS} at once: ` +
            `p50 ${rounded(burstSorted, 50)}, p99 ${rounded(burstSorted, 99)} ms (to agent_message_new: ` +
            `p50 ${rounded(ascending(burstStarts), 50)}, p99 ${rounded(ascending(burstStarts), 99)} ms)${miss(firstFailed)}`,
          failed: firstFailed,
        },
      ];
    } finally {
      for (const subscriber of subscribers) subscriber.close();
      agent.destroy();
      await db.end().catch(() => undefined);
      await measured.stop();
      await model.stop();
      rmSync(reportDir, { recursive: true, force: true });
    }
  },
};

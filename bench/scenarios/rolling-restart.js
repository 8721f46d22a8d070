/**
 * A rolling restart under load: two service processes on one embedded PostgreSQL, 100 agent runs
 * streaming at once, each making one call of a tool that is not safe to repeat before it answers
 * 400 tokens at 50 a second; each process is restarted in turn while they stream (SIGTERM, then in
 * a second round kill -9). Every conversation has one subscriber, which reconnects to the other
 * process with `Last-Event-ID` when its stream closes. Measured: failed answers, tool calls made
 * twice for one run, answers (streamed and persisted) equal to the model's text, and the longest
 * pause of each stream between its first token and its end.
 */
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:http');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { performance } = require('node:perf_hooks');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { z } = require('zod');
const { Client } = require('pg');
const { databaseConfig } = require('../database');
const { bootstrap, fetchJson, seed, startService } = require('../harness');
const { parseEvent, percentile, streamAgent, subscribe, until } = require('../sse');

const RUNS = 100;
const TOKENS = 400;
const TOKEN_INTERVAL_MS = 20; // 50 tokens a second per run
const TOOL_MS_MAX = 3_000; // each call takes up to this long: some are cut by a restart
const RESTART_AFTER_MS = 1_500;
const RUN_TIMEOUT_MS = 120_000;
const STALE_AFTER_MS = 5_000;
const TARGET_PAUSE_P99_MS = 3_000;
const TARGET_KILL_PAUSE_P99_MS = STALE_AFTER_MS + 2_000;
const WORDS = ['the', 'run', 'goes', 'on', 'across', 'a', 'restart', 'and', 'so', 'its', 'answer'];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer of run `n`, as tokens: its first names it, so a stream carrying another's text shows. */
function answerTokens(n) {
  return Array.from({ length: TOKENS }, (_, k) =>
    k === 0 ? `[${n}]` : ` ${WORDS[(n * 5 + k * 7) % WORDS.length]}`,
  );
}

/** A remote MCP server with one tool that records a step of run `run`: not declared safe to repeat. */
function ledgerServer() {
  const calls = new Map(); // run → calls received
  const server = createServer(async (req, res) => {
    const mcp = new McpServer({ name: 'ledger', version: '1.0.0' });
    mcp.registerTool(
      'record_step',
      { description: 'Records a step of a run.', inputSchema: { run: z.number().int() } },
      async ({ run }) => {
        calls.set(run, (calls.get(run) ?? 0) + 1);
        await sleep(Math.floor(Math.random() * TOOL_MS_MAX));
        return { content: [{ type: 'text', text: `Recorded step of run ${run}.` }] };
      },
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  return {
    calls,
    start: () =>
      new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/mcp`)),
      ),
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The fake model: the run's number is in the last user message (`#<n>`). Without a tool result yet
 * it calls `ledger__record_step`; with one, it streams the run's answer, one token every
 * TOKEN_INTERVAL_MS, from where the answer it is asked to continue stops.
 */
function fakeModel() {
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    const asked = [...body.messages].reverse().find((message) => message.role === 'user');
    const n = Number(/#(\d+)/.exec(String(asked.content))[1]);
    const write = (payload) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    if (!body.messages.some((message) => message.role === 'tool')) {
      const call = {
        id: `call_${n}`,
        type: 'function',
        function: { name: 'ledger__record_step', arguments: JSON.stringify({ run: n }) },
      };
      write({ choices: [{ delta: { tool_calls: [{ index: 0, ...call }] } }] });
      write({ choices: [{ delta: {}, finish_reason: 'tool_calls' }] });
      res.end('data: [DONE]\n\n');
      return;
    }
    const [last, beforeLast] = [body.messages.at(-1), body.messages.at(-2)];
    const said = last.role === 'system' && beforeLast?.role === 'assistant' ? beforeLast.content : '';
    // The answer's tokens past the cut, the first one finishing a token the cut stream had begun.
    const answer = answerTokens(n).join('');
    const from = answer.startsWith(said) ? said.length : 0;
    const tokens = [];
    let offset = 0;
    for (const token of answerTokens(n)) {
      const end = offset + token.length;
      if (end > from) tokens.push(answer.slice(Math.max(offset, from), end));
      offset = end;
    }
    let closed = false;
    res.on('close', () => (closed = true));
    for (const token of tokens) {
      if (closed) return;
      write({ choices: [{ delta: { content: token } }] });
      await sleep(TOKEN_INTERVAL_MS);
    }
    write({ choices: [{ delta: {}, finish_reason: 'stop' }] });
    res.end('data: [DONE]\n\n');
  });
  return {
    start: () =>
      new Promise((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}/v1`)),
      ),
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * One conversation's subscriber across processes: when its stream closes before the answer is
 * done, it reconnects to the process `pick()` names, from the last event id it saw.
 */
function follower(urlOf, pick, headers, agent) {
  const state = { events: [], lastId: '0', done: false, reconnects: 0, stopped: false };
  const open = async () => {
    while (!state.done && !state.stopped) {
      let stream;
      try {
        stream = await subscribe(urlOf(pick()), { ...headers, 'Last-Event-ID': state.lastId }, agent, (s) => {
          const event = s.events.at(-1);
          // A block of `retry:` alone (a closing stream's hint) carries no event.
          if (!event.block.includes('data: ')) return;
          const { id, data } = parseEvent(event.block);
          if (id) state.lastId = id;
          state.events.push({ at: event.at, data });
          if (data.type === 'agent_message_done') state.done = true;
        });
      } catch {
        await sleep(200);
        continue;
      }
      if (stream.status !== 200) {
        stream.close();
        await sleep(200);
        continue;
      }
      state.close = stream.close;
      await until(() => stream.closed || state.done || state.stopped, RUN_TIMEOUT_MS, 50);
      stream.close();
      if (!state.done && !state.stopped) {
        state.reconnects += 1;
        await sleep(1_000); // the stream's `retry:` hint
      }
    }
  };
  state.opened = open();
  return state;
}

/** What one follower saw of its answer: the text, its outcome, the longest pause between tokens. */
function readFollower(state) {
  let text = '';
  let done = null;
  let longestPause = 0;
  let previous = NaN;
  for (const { at, data } of state.events) {
    if (data.type === 'generation_tokens' && data.classification === 'tokens') {
      text += data.text;
      if (!isNaN(previous)) longestPause = Math.max(longestPause, at - previous);
      previous = at;
    } else if (data.type === 'agent_message_done') {
      done = data.status;
      if (!isNaN(previous)) longestPause = Math.max(longestPause, at - previous);
    }
  }
  return { text, done, longestPause };
}

/** One round: 100 runs posted across both processes, each process restarted in turn while they stream. */
async function round({ dataDir, env, processes, headers, base, agentSId, conversations, ledger, signal }) {
  ledger.calls.clear();
  const agent = streamAgent();
  const alive = () => processes.find((p) => p.up) ?? processes[0];
  const urlOf = (p) => `${p.service.baseUrl}${base.stream}`;
  const followers = conversations.map((cId, i) =>
    follower(
      (p) => urlOf(p).replace('{cId}', cId),
      () => (processes[i % 2].up ? processes[i % 2] : alive()),
      headers,
      agent,
    ),
  );
  await sleep(500);
  const posts = await Promise.all(
    conversations.map(async (cId, n) => {
      const target = processes[n % 2].service.baseUrl;
      const res = await fetch(`${target}${base.messages.replace('{cId}', cId)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          content: `Record your step, then answer #${n}`,
          mentions: [{ configurationId: agentSId }],
          context: { username: 'bench', timezone: 'UTC' },
        }),
      });
      return res.ok ? (await res.json()).message.sId : null;
    }),
  );
  for (const p of processes) {
    await sleep(RESTART_AFTER_MS);
    p.up = false;
    if (signal === 'SIGKILL') await p.service.kill();
    else await p.service.stop();
    p.service = await startService({ env, dataDir });
    p.up = true;
  }
  await until(() => followers.every((f) => f.done), RUN_TIMEOUT_MS, 250);
  for (const f of followers) f.stopped = true;
  for (const f of followers) f.close?.();
  agent.destroy();
  return { followers, posts };
}

module.exports = {
  name: 'rolling-restart',
  async run() {
    const ledger = ledgerServer();
    const model = fakeModel();
    const [ledgerUrl, modelUrl] = [await ledger.start(), await model.start()];
    const dataDir = mkdtempSync(join(tmpdir(), 'wa-bench-rolling-'));
    chmodSync(dataDir, 0o755);
    const env = {
      OPENAI_BASE_URL: modelUrl,
      OPENAI_API_KEY: 'bench',
      MCP_ALLOW_PRIVATE_NETWORKS: 'true',
      RUN_CONCURRENCY: String(RUNS * 2),
      RATE_LIMIT_REQUESTS: '0',
      SSE_MAX_KEY_STREAMS: String(RUNS * 2),
      SSE_MAX_WORKSPACE_STREAMS: String(RUNS * 2),
      SHUTDOWN_GRACE_MS: '500',
      RUN_DRAIN_MS: '1000',
      RUN_HEARTBEAT_MS: '1000',
      RUN_STALE_AFTER_MS: String(STALE_AFTER_MS),
    };
    const processes = [];
    let db = null;
    try {
      for (let i = 0; i < 2; i++) processes.push({ service: await startService({ env, dataDir }), up: true });
      db = new Client(databaseConfig(dataDir));
      await db.connect();
      const { workspace, apiKey } = await bootstrap(processes[0].service, 'Rolling restart bench');
      const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
      // The processes' addresses change with each restart.
      const apiOf = () => `${processes[0].service.baseUrl}/api/w/${workspace.sId}`;
      const api = apiOf();
      const { mcpServer } = await fetchJson(`${api}/mcp_servers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'ledger', url: ledgerUrl, description: 'Bench ledger' }),
      });
      const { spaces } = await fetchJson(`${api}/spaces`, { headers });
      const global = spaces.find((space) => space.kind === 'global');
      await fetchJson(`${api}/spaces/${global.sId}/mcp_server_views`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ mcpServerId: mcpServer.sId }),
      });
      const { agentConfiguration } = await fetchJson(`${api}/assistant/agent_configurations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          assistant: {
            name: 'bench-ledger',
            description: 'Bench',
            instructions: 'Record your step, then answer.',
            scope: 'visible',
            model: { providerId: 'openai', modelId: 'bench-model', temperature: 0 },
            actions: [{ name: 'ledger', mcpServerName: 'ledger' }],
          },
        }),
      });
      const base = {
        stream: `/api/sse/w/${workspace.sId}/assistant/conversations/{cId}/events`,
        messages: `/api/w/${workspace.sId}/assistant/conversations/{cId}/messages`,
      };
      const rows = [];
      for (const signal of ['SIGTERM', 'SIGKILL']) {
        await seed(RUNS, 16, (i) => ({
          url: `${apiOf()}/assistant/conversations`,
          init: { method: 'POST', headers, body: JSON.stringify({ title: `${signal} ${i}` }) },
        }));
        const listed = await db.query(
          `SELECT s_id FROM conversations WHERE workspace_id = (SELECT id FROM workspaces WHERE s_id = $1)
             AND title LIKE $2 ORDER BY id`,
          [workspace.sId, `${signal} %`],
        );
        const conversations = listed.rows.map((row) => row.s_id);
        const started = performance.now();
        const { followers, posts } = await round({
          dataDir,
          env,
          processes,
          headers,
          base,
          agentSId: agentConfiguration.sId,
          conversations,
          ledger,
          signal,
        });
        const seconds = (performance.now() - started) / 1000;
        const seen = followers.map(readFollower);
        const failed =
          seen.filter((s) => s.done !== 'success').length + posts.filter((p) => p === null).length;
        const wrongStreams = seen.filter((s, n) => s.text !== answerTokens(n).join('')).length;
        const twice = [...ledger.calls.values()].filter((count) => count > 1).length;
        const { rows: persisted } = await db.query(
          `SELECT count(*)::int AS exact FROM messages m
            WHERE m.type = 'agent_message' AND m.status = 'succeeded' AND m.content = ANY($1::text[])
              AND m.conversation_id IN (SELECT id FROM conversations WHERE s_id = ANY($2::text[]))`,
          [Array.from({ length: RUNS }, (_, n) => answerTokens(n).join('')), conversations],
        );
        const pauses = Float64Array.from(seen.map((s) => s.longestPause)).sort();
        const pauseP99 = Math.round(percentile(pauses, 99));
        const target = signal === 'SIGKILL' ? TARGET_KILL_PAUSE_P99_MS : TARGET_PAUSE_P99_MS;
        const missed =
          failed > 0 || twice > 0 || wrongStreams > 0 || persisted[0].exact !== RUNS || !(pauseP99 < target);
        rows.push({
          scenario: `rolling restart (${signal === 'SIGKILL' ? 'kill -9' : 'SIGTERM'}, ${RUNS} runs)`,
          rps: '-',
          p50: Math.round(percentile(pauses, 50)),
          p99: pauseP99,
          errors: failed + wrongStreams + twice,
          note:
            `longest pause of a stream p50/p99 ${Math.round(percentile(pauses, 50))}/${pauseP99} ms (target p99 < ${target}); ` +
            `failed answers ${failed}; tool calls made twice ${twice} (calls ${[...ledger.calls.values()].reduce((a, b) => a + b, 0)}); ` +
            `streams not equal to the model's text ${wrongStreams}; persisted answers equal to it ${persisted[0].exact}/${RUNS}; ` +
            `reconnects ${followers.reduce((sum, f) => sum + f.reconnects, 0)}; took ${seconds.toFixed(1)} s` +
            (missed ? ' — MISSED' : ''),
          failed: missed,
        });
      }
      return rows;
    } finally {
      await db?.end().catch(() => undefined);
      for (const p of processes) await p.service.stop().catch(() => undefined);
      await ledger.stop();
      await model.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

/**
 * Shared pieces of the benchmarks: start the built service on its own embedded PostgreSQL
 * (or DATABASE_URL), drive it with autocannon, and summarise a run as one table row.
 */
const { execFile, execFileSync, spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { request } = require('node:http');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const autocannon = require('autocannon');

const MAIN = join(__dirname, '..', 'dist', 'src', 'main.js');
const CLI = join(__dirname, '..', 'dist', 'src', 'cli.js');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The service exited with ${child.exitCode}`);
    const ok = await fetch(url).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms`);
}

/**
 * The service as `npm start` runs it, quiet. By default on a throw-away data directory (its own
 * embedded PostgreSQL, removed on stop); given `dataDir`, a further process attached to the
 * PostgreSQL another one started there (stop it before that one). `nodeArgs` go before the script.
 */
async function startService({ env = {}, dataDir, nodeArgs = [] } = {}) {
  const port = await freePort();
  const ownsDataDir = dataDir === undefined;
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'wa-bench-'));
  if (ownsDataDir) chmodSync(dir, 0o755);
  // BENCH_CPU_PROF=<dir>: the service writes its CPU profile there when it stops (for profiling a scenario).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...profile, ...nodeArgs, MAIN], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitFor(`${baseUrl}/healthz`, child, 60_000);
  return {
    baseUrl,
    dataDir: dir,
    // What another process (the CLI, a reference server) needs to reach this service's database.
    databaseEnv: process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: dir },
    cli: CLI,
    pid: child.pid,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      if (ownsDataDir) rmSync(dir, { recursive: true, force: true });
    },
    // kill -9: the process ends at once, handing nothing over (its data directory stays).
    kill: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

let ticksPerSecond;

/** user + system CPU seconds of a process so far (/proc/<pid>/stat, in clock ticks). */
function cpuSeconds(pid) {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/** A field of /proc/<pid>/status given in kB (VmRSS, VmHWM…), in bytes. */
function procStatus(pid, field) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line.split(/\s+/)[1]) * 1024;
}

/** Resets a process's peak RSS (`VmHWM`) to its current one (Linux ≥ 4.0); false where it is not allowed. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Streams `size` bytes, the `chunks` given, as the part `file` of a multipart body to `url` (a
 * signed upload URL); resolves the status and the body's text.
 */
function multipartUpload(url, { contentType, fileName, size, chunks }) {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + size + tail.length,
      },
    });
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.on('data', (data) => (body += data));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    const parts = chunks[Symbol.iterator]();
    const write = () => {
      for (let next = parts.next(); !next.done; next = parts.next()) {
        if (!req.write(next.value)) return req.once('drain', write);
      }
      req.end(tail);
    };
    req.write(head);
    write();
  });
}

/**
 * A workspace with an all-scopes key, made by the admin CLI on the service's database. `service`:
 * what startService returns, or any `{ baseUrl, databaseEnv, cli }` (the test suite's own service).
 */
function bootstrap(service, name) {
  const args = ['bootstrap', '--workspace', name, '--email', 'bench@example.com', '--name', 'Bench'];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [service.cli, ...args],
      { env: { ...process.env, ...service.databaseEnv } },
      (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout))),
    );
  });
}

/** A user message without mentions (so no agent runs). */
function userMessage(content) {
  return { content, mentions: [], context: { username: 'bench', timezone: 'UTC' } };
}

/** A bootstrapped workspace with one titled conversation holding one message; `url` is the conversation's. */
async function conversation(service, workspaceName) {
  const { workspace, apiKey } = await bootstrap(service, workspaceName);
  const headers = { Authorization: `Bearer ${apiKey.secret}`, 'Content-Type': 'application/json' };
  const conversationsUrl = `${service.baseUrl}/api/w/${workspace.sId}/assistant/conversations`;
  const res = await fetch(conversationsUrl, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title: 'Bench', message: userMessage('First message') }),
  });
  if (!res.ok) throw new Error(`Creating the conversation failed: ${res.status} ${await res.text()}`);
  const { conversation: created } = await res.json();
  return {
    wId: workspace.sId,
    cId: created.sId,
    url: `${conversationsUrl}/${created.sId}`,
    secret: apiKey.secret,
    headers,
  };
}

/** `fetch` that insists on a 2xx and returns the parsed JSON body. */
async function fetchJson(url, init = {}) {
  return JSON.parse(await fetchText(url, init));
}

/** `fetch` that insists on a 2xx and returns the body as sent (its text). */
async function fetchText(url, init = {}) {
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return text;
}

/** An autocannon result as a row's columns: {rps, p50, p99, errors} (connection errors, time-outs, non-2xx). */
function summaryOf(result) {
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + (result.non2xx ?? 0),
  };
}

/** Runs autocannon and returns {rps, p50, p99, errors}; a short warm-up run is discarded. */
async function load(options) {
  const base = { connections: 32, duration: 8, ...options };
  await autocannon({ ...base, duration: 2 });
  return summaryOf(await autocannon(base));
}

/** Sends `count` requests built by `make(i)`, `concurrency` at a time; throws on the first non-2xx. */
async function seed(count, concurrency, make) {
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const { url, init } = make(i);
      const res = await fetch(url, init);
      if (!res.ok) throw new Error(`Seeding request ${i} failed: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** A service's query counters: bench/query-counter.js, preloaded, answers SIGUSR2 with them in `report`. */
async function queryCounters(pid, report) {
  rmSync(report, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(report, 'utf8'));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error('The service did not report its query count');
}

module.exports = {
  cpuSeconds,
  freePort,
  queryCounters,
  startService,
  procStatus,
  resetPeak,
  multipartUpload,
  fetchJson,
  fetchText,
  load,
  summaryOf,
  bootstrap,
  seed,
  userMessage,
  conversation,
};

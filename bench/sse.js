/**
 * A lean Server-Sent-Events client for the benchmarks: many subscribers over one keep-alive agent,
 * each event kept raw with the time its bytes arrived, and parsed only after the measurement.
 */
const { readFileSync } = require('node:fs');
const { Agent, request } = require('node:http');
const { performance } = require('node:perf_hooks');

const ANSWER_TIMEOUT_MS = 30_000;

/** An agent that keeps every stream on its own socket, with no limit on their number. */
function streamAgent() {
  return new Agent({ keepAlive: true, maxSockets: Infinity });
}

/**
 * Opens one stream. Resolves once the answer's headers arrive, with `status`, `contentType`,
 * `events` ({at, block}: performance.now() on arrival, the raw `id:`/`data:` lines) and `close()`;
 * `onEvent(subscriber)` is called after each event. Heartbeat comments are skipped.
 */
function subscribe(url, headers, agent, onEvent = () => undefined) {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      clearTimeout(timer);
      const subscriber = {
        status: res.statusCode,
        contentType: res.headers['content-type'] ?? '',
        events: [],
        closed: false,
        close: () => req.destroy(),
      };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        const at = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) continue;
          subscriber.events.push({ at, block });
          onEvent(subscriber);
        }
      });
      res.on('error', () => (subscriber.closed = true));
      res.on('close', () => (subscriber.closed = true));
      resolve(subscriber);
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`${url} did not answer in ${ANSWER_TIMEOUT_MS} ms`)),
      ANSWER_TIMEOUT_MS,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

/**
 * Opens `count` streams, `batch` at a time, stopping after a batch in which one failed (no answer,
 * or not 200 text/event-stream). Resolves with every stream that answered (the caller closes them)
 * and `failure`: null when all `count` opened, else what went wrong.
 */
async function subscribeMany(count, batch, open) {
  const subscribers = [];
  while (subscribers.length < count) {
    const size = Math.min(batch, count - subscribers.length);
    const results = await Promise.allSettled(Array.from({ length: size }, open));
    const answered = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    subscribers.push(...answered);
    const errors = results.filter((r) => r.status === 'rejected').map((r) => r.reason.message);
    const refused = answered
      .filter((s) => s.status !== 200 || !s.contentType.startsWith('text/event-stream'))
      .map((s) => `${s.status} ${s.contentType}`);
    const failed = [...errors, ...refused];
    if (failed.length > 0) {
      const before = subscribers.length - answered.length;
      return {
        subscribers,
        failure: `${failed.length} of a batch of ${size} streams failed after ${before} opened (first: ${failed[0]})`,
      };
    }
  }
  return { subscribers, failure: null };
}

/** The soft limit of open files of a process (Node raises it to the hard limit at start). */
function openFilesLimit(pid) {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const soft = line.split(/\s{2,}/)[1];
  return soft === 'unlimited' ? Infinity : Number(soft);
}

/** Throws unless every process of `pids` may open `needed` files (a stream holds a socket at each end). */
function checkOpenFiles(pids, needed) {
  for (const pid of pids) {
    const limit = openFilesLimit(pid);
    if (limit < needed) {
      throw new Error(
        `Process ${pid} may open ${limit} files; ${needed} are needed: raise the hard limit (ulimit -Hn) before npm run bench`,
      );
    }
  }
}

/** The row of a scenario whose streams could not all be opened: a miss, with the reason. */
function unopenedRow(scenario, failure) {
  const note = `could not open the streams: ${failure} — MISSED`;
  return { scenario, rps: '-', p50: '-', p99: '-', errors: 1, note, failed: true };
}

/** `id` and parsed `data` of a raw event block. */
function parseEvent(block) {
  const lines = block.split('\n');
  const id = lines.find((line) => line.startsWith('id: '))?.slice(4) ?? '';
  const data = lines
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .join('\n');
  return { id, data: JSON.parse(data) };
}

/** Resolves when `done()` holds, checking every `everyMs`; false if it still does not after `timeoutMs`. */
async function until(done, timeoutMs, everyMs = 10) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}

/** The percentile `p` (0–100) of sorted numbers, nearest rank. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

module.exports = {
  checkOpenFiles,
  streamAgent,
  subscribe,
  subscribeMany,
  unopenedRow,
  parseEvent,
  until,
  percentile,
};

/**
 * Preloaded (`--require`) into a service process whose SQL a scenario counts: every query a
 * request makes through pg is counted, from the request's own work only (what runs once its
 * transaction commits, such as the agent runs a post queued, and the timers are left out).
 * It also counts every statement of the process (`statements`), and among them the streams' reads
 * of the event log (`logReads`, never counted as a request's). On SIGUSR2 it writes {requests, queries, statements, logReads}
 * as JSON to the file named by BENCH_QUERY_REPORT.
 */
const { AsyncLocalStorage } = require('node:async_hooks');
const { writeFileSync } = require('node:fs');
const http = require('node:http');
const { Client } = require('pg');
const { EventEmitter2 } = require('eventemitter2');

const inRequest = new AsyncLocalStorage();
let requests = 0;
let queries = 0;
let statements = 0;
let logReads = 0;

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, ...args) {
  if (event !== 'request') return emit.call(this, event, ...args);
  requests++;
  return inRequest.run(true, () => emit.call(this, event, ...args));
};

const query = Client.prototype.query;
Client.prototype.query = function (...args) {
  statements++;
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  if (
    text?.startsWith('SELECT e.id, e.payload FROM conversation_events') ||
    text?.startsWith('SELECT p.ord, e.id, e.payload')
  )
    logReads++;
  else if (inRequest.getStore()) queries++;
  return query.apply(this, args);
};

// In-process events are emitted after commit from the request; their listeners are not its work.
const emitEvent = EventEmitter2.prototype.emit;
EventEmitter2.prototype.emit = function (...args) {
  return inRequest.exit(() => emitEvent.apply(this, args));
};

// Nor is what a request's transaction sets going once it commits (the runs a post queued, started
// by this process): the service's own module, the one its code loads, is patched.
const { TypeormUnitOfWork } = require('../dist/src/platform/database/typeorm-unit-of-work.js');
const afterCommit = TypeormUnitOfWork.prototype.afterCommit;
TypeormUnitOfWork.prototype.afterCommit = function (callback) {
  return afterCommit.call(this, () => inRequest.exit(callback));
};

process.on('SIGUSR2', () => {
  writeFileSync(process.env.BENCH_QUERY_REPORT, JSON.stringify({ requests, queries, statements, logReads }));
});

import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Tracer,
} from '@opentelemetry/api';
import { Client, Pool } from 'pg';

/** The first argument of `Client.query` when it is not the text itself. */
interface QueryConfig {
  text?: unknown;
  name?: unknown;
  submit?: unknown;
  callback?: unknown;
}

type QueryCallback = (this: unknown, error: unknown, result: unknown) => unknown;

/**
 * Traces pg's queries: a client span for each query a recorded span is waiting on (a request's, a
 * run's), named and described as OpenTelemetry's pg instrumentation does (`pg.query:SELECT app`,
 * `db.query.text`, `db.operation.name`, the server), and none for a query outside one (the
 * schedulers' polls). The span ends when pg answers. Nothing else is done on a query's way: no
 * copy of its config, no metrics; only the pool's `connect` callback is bound, to keep a waiting
 * caller's context. Queries with a cursor or their own callback go through untraced. Returns what
 * puts pg back as it was.
 */
export function tracePgQueries(tracer: Tracer): () => void {
  const original = Client.prototype.query;
  function query(this: Client, ...args: unknown[]): unknown {
    if (!recording(context.active())) return original.apply(this, args as never);
    const config = args[0];
    const described: QueryConfig = typeof config === 'string' ? { text: config } : (config ?? {});
    const text = described.text;
    if (typeof text !== 'string' || described.submit !== undefined || described.callback !== undefined) {
      return original.apply(this, args as never);
    }
    const plan = typeof described.name === 'string' && described.name ? described.name : undefined;
    const operation = operationName(text);
    const { database, host, port } = this;
    const attributes: Attributes = {
      'db.system.name': 'postgresql',
      'db.namespace': database,
      'db.operation.name': operation,
      'db.query.text': text,
      'server.address': host,
      'server.port': Number.isInteger(port) ? port : undefined,
    };
    if (plan) attributes['db.postgresql.plan'] = plan;
    const span = tracer.startSpan(`pg.query:${plan ?? operation}${database ? ` ${database}` : ''}`, {
      kind: SpanKind.CLIENT,
      attributes,
    });
    const end = (error: unknown) => {
      if (error) {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string') span.setAttribute('error.type', code);
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : 'The query failed.',
        });
      }
      span.end();
    };
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = function (this: unknown, error: unknown, result: unknown) {
        end(error);
        return (callback as QueryCallback).call(this, error, result);
      };
      return original.apply(this, args as never);
    }
    let result: unknown;
    try {
      result = original.apply(this, args as never);
    } catch (error) {
      end(error);
      throw error;
    }
    if (result instanceof Promise) result.then(() => end(null), end);
    else end(null);
    return result;
  }
  Client.prototype.query = query as typeof original;
  const restoreConnect = connectInCallersContext();
  return () => {
    Client.prototype.query = original;
    restoreConnect();
  };
}

type ConnectCallback = (this: unknown, ...args: unknown[]) => unknown;

/**
 * A pool's callback runs where the connection was freed: a caller that waited for one would run
 * its query in the context of the caller that released it (`pool.query` goes through `connect`),
 * its span the child of another request's, or of one already ended. The callback is bound to the
 * context `connect` was called in, when a recorded span is there to be kept. Returns the undoing.
 */
function connectInCallersContext(): () => void {
  const prototype = Pool.prototype as { connect: (...args: unknown[]) => unknown };
  const own = Object.prototype.hasOwnProperty.call(prototype, 'connect');
  const original = prototype.connect;
  prototype.connect = function connect(this: Pool, ...args: unknown[]): unknown {
    const callback = args[0];
    const active = context.active();
    if (typeof callback === 'function' && recording(active)) {
      args[0] = context.bind(active, callback as ConnectCallback);
    }
    return original.apply(this, args);
  };
  return () => {
    if (own) prototype.connect = original;
    else delete (prototype as { connect?: unknown }).connect;
  };
}

/** Whether `active` holds a span being recorded, the one thing worth tracing a query for. */
function recording(active: Context): boolean {
  return trace.getSpan(active)?.isRecording() === true;
}

/**
 * The statement's first word, as the pg instrumentation names it (`SELECT`, `WITH`, `INSERT`): read
 * in place, since the text may be a few kilobytes and every traced query asks.
 */
function operationName(text: string): string {
  let start = 0;
  while (start < text.length && text.charCodeAt(start) <= SPACE) start++;
  let end = start;
  while (end < text.length && text.charCodeAt(end) > SPACE && text[end] !== ';') end++;
  return text.slice(start, end).toUpperCase();
}

/** Code units up to the space are whitespace and control characters, which end a word. */
const SPACE = 32;

import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
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
 * copy of its config, no metrics, a prepared statement's name and attributes built once; only the
 * pool's `connect` callback is wrapped, to keep a waiting caller's context. Queries with a cursor
 * or their own callback go through untraced. Returns what puts pg back as it was.
 */
export function tracePgQueries(tracer: Tracer): () => void {
  const original = Client.prototype.query;
  const described = new QueryDescriptions();
  function query(this: Client, ...args: unknown[]): unknown {
    if (!recording(context.active())) return original.apply(this, args as never);
    const config = args[0];
    const given: QueryConfig = typeof config === 'string' ? { text: config } : (config ?? {});
    const text = given.text;
    if (typeof text !== 'string' || given.submit !== undefined || given.callback !== undefined) {
      return original.apply(this, args as never);
    }
    const plan = typeof given.name === 'string' && given.name ? given.name : undefined;
    const description = described.of(this, text, plan);
    const span = tracer.startSpan(description.spanName, {
      kind: SpanKind.CLIENT,
      attributes: description.attributes,
    });
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      // Named before it is stored: V8 allocates a function literal assigned straight to a property
      // (`args[last] = function…`) in the old generation, and what it reaches (the caller's promise,
      // the rows once pg answers) was promoted with it: 75–178 MB in 8 s of load, against 14.
      const answer = function (this: unknown, error: unknown, result: unknown) {
        endQuerySpan(span, error);
        return (callback as QueryCallback).call(this, error, result);
      };
      args[last] = answer;
      return original.apply(this, args as never);
    }
    let result: unknown;
    try {
      result = original.apply(this, args as never);
    } catch (error) {
      endQuerySpan(span, error);
      throw error;
    }
    if (result instanceof Promise) {
      result.then(
        () => endQuerySpan(span, null),
        (error: unknown) => endQuerySpan(span, error),
      );
    } else endQuerySpan(span, null);
    return result;
  }
  Client.prototype.query = query as typeof original;
  const restoreConnect = connectInCallersContext();
  return () => {
    Client.prototype.query = original;
    restoreConnect();
  };
}

/** A query's span name and attributes, as OpenTelemetry's pg instrumentation gives them. */
interface QueryDescription {
  readonly text: string;
  readonly database: string | undefined;
  readonly host: string | undefined;
  readonly port: number | undefined;
  readonly spanName: string;
  readonly attributes: Readonly<Attributes>;
}

/**
 * Describes queries, keeping the description of each prepared statement (by its name: a handful,
 * the service's hot reads) instead of reading its text and building its name and attributes on
 * every run. The SDK copies a span's attributes, so one frozen object serves every span.
 */
class QueryDescriptions {
  private readonly byPlan = new Map<string, QueryDescription>();

  of(client: Client, text: string, plan: string | undefined): QueryDescription {
    const { database, host } = client;
    const port = Number.isInteger(client.port) ? client.port : undefined;
    if (plan === undefined) return describe(text, plan, database, host, port);
    const kept = this.byPlan.get(plan);
    if (
      kept &&
      kept.text === text &&
      kept.database === database &&
      kept.host === host &&
      kept.port === port
    ) {
      return kept;
    }
    const description = describe(text, plan, database, host, port);
    if (this.byPlan.size >= MAX_PLANS_KEPT) this.byPlan.clear();
    this.byPlan.set(plan, description);
    return description;
  }
}

/** Statement names are the service's own; the bound only guards against a caller naming each query. */
const MAX_PLANS_KEPT = 256;

function describe(
  text: string,
  plan: string | undefined,
  database: string | undefined,
  host: string | undefined,
  port: number | undefined,
): QueryDescription {
  const operation = operationName(text);
  const attributes: Attributes = {
    'db.system.name': 'postgresql',
    'db.namespace': database,
    'db.operation.name': operation,
    'db.query.text': text,
    'server.address': host,
    'server.port': port,
  };
  if (plan) attributes['db.postgresql.plan'] = plan;
  return {
    text,
    database,
    host,
    port,
    spanName: `pg.query:${plan ?? operation}${database ? ` ${database}` : ''}`,
    attributes: Object.freeze(attributes),
  };
}

/** Ends a query's span when pg answers; a failure gives its SQLSTATE and message. */
function endQuerySpan(span: Span, error: unknown): void {
  if (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') span.setAttribute('error.type', code);
    span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error instanceof Error ? error.message : 'The query failed.',
    });
  }
  span.end();
}

type ConnectCallback = (...args: unknown[]) => unknown;

/**
 * A pool's callback runs where the connection was freed: a caller that waited for one would run
 * its query in the context of the caller that released it (`pool.query` goes through `connect`),
 * its span the child of another request's, or of one already ended. The callback runs in the
 * context `connect` was called in, when a recorded span is there to be kept, entered only when the
 * callback comes later than the call. It is bound, not a function literal stored into `args[0]`,
 * which V8 would allocate in the old generation (see `answer` above): the traced service promoted
 * 2.3 times as many bytes under the same load (128 MB against 56), its requests' rows among them,
 * and its scavenges took twice as long. Returns the undoing.
 */
function connectInCallersContext(): () => void {
  const prototype = Pool.prototype as { connect: (...args: unknown[]) => unknown };
  const own = Object.prototype.hasOwnProperty.call(prototype, 'connect');
  const original = prototype.connect;
  prototype.connect = function connect(this: Pool, ...args: unknown[]): unknown {
    const callback = args[0];
    const active = context.active();
    if (typeof callback === 'function' && recording(active)) {
      args[0] = answerInContext.bind(undefined, active, callback as ConnectCallback);
    }
    return original.apply(this, args);
  };
  return () => {
    if (own) prototype.connect = original;
    else delete (prototype as { connect?: unknown }).connect;
  };
}

/** The pool's callback, in `active`: entered only when the callback comes later than the call. */
function answerInContext(active: Context, callback: ConnectCallback, ...results: unknown[]): unknown {
  return context.active() === active
    ? callback(...results)
    : context.with(active, callback, undefined, ...results);
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

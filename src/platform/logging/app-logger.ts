import { DynamicModule, Global, Inject, Injectable, Module } from '@nestjs/common';
import { trace, type Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, LoggerModule, PARAMS_PROVIDER_TOKEN, type Params, PinoLogger } from 'nestjs-pino';
import pino, { type Level, type Logger as Pino } from 'pino';
import type { LogLevel } from 'src/platform/config/platform.config';
import { routeTemplateOf } from 'src/platform/http/route-template';
import { OperatorLog, PinoOperatorLog } from 'src/platform/logging/operator-log';
import { requestId } from 'src/platform/logging/request-id';

/** A signed URL is a credential until it expires: its signature never reaches the logs. */
export function withoutSignature(url: string): string {
  return url.includes('signature=') ? url.replace(/([?&]signature=)[^&]*/g, '$1[Redacted]') : url;
}

/**
 * Nest's start-up narration (each module initialised, each controller and route mapped: about a
 * hundred lines) is for debugging; at `info` a start says where the service listens, once.
 */
const STARTUP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest's logger on nestjs-pino, with Nest's start-up narration kept below `info`. */
@Injectable()
export class ServiceLogger extends Logger {
  constructor(logger: PinoLogger, @Inject(PARAMS_PROVIDER_TOKEN) params: Params) {
    super(logger, params);
  }

  override log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    if (typeof context === 'string' && STARTUP_CONTEXTS.has(context)) this.debug(message, ...params);
    else super.log(message, ...params);
  }
}

/** The ids of the active span, on every line written inside one (nothing when tracing is off). */
function traceFields(): Record<string, string> {
  return idsOf(trace.getActiveSpan());
}

function idsOf(span: Span | undefined): Record<string, string> {
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** What the guard leaves on an authenticated request (read structurally: platform/auth depends on logging). */
interface CallerOfRequest {
  caller?: { workspaceSId: string; keyId: string };
}

/** Writes the access line of a request once it is answered or the client has gone. */
export type AccessLogMiddleware = (req: IncomingMessage, res: ServerResponse) => void;

const levelOfStatus = (status: number): Level => (status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info');

/**
 * The access log: one line per request once it is answered or the client has gone, with the route
 * template, the workspace and the key that called. Only the id, method and URL (its signature
 * redacted) of the request are written: never its headers (the bearer key) nor its query. A request
 * pays for one `close` listener; the line is built only when its level is on (pino-http built two
 * child loggers per request, serialising the request each time, whatever the level).
 */
export function createAccessLog(logger: Pino): AccessLogMiddleware {
  return (req, res) => {
    const id = requestId(req);
    (req as IncomingMessage & { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    const url = req.url ?? '';
    const start = Date.now();
    // Read now: 'close' is emitted outside the request's trace context.
    const span = trace.getActiveSpan();
    res.once('close', () => {
      const status = res.statusCode;
      const level = levelOfStatus(status);
      if (!logger.isLevelEnabled(level)) return;
      const { caller } = req as CallerOfRequest;
      const answered = res.headersSent;
      logger[level](
        {
          ...idsOf(span),
          req: { id, method: req.method, url: withoutSignature(url) },
          ...(answered ? { route: routeTemplateOf(req) } : {}),
          ...(answered && caller ? { workspace: caller.workspaceSId, keyId: caller.keyId } : {}),
          res: { statusCode: status, finished: res.writableFinished },
          ...(status >= 500 ? { err: new Error(`failed with status code ${status}`) } : {}),
          responseTime: Date.now() - start,
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
  };
}

/** The access log's middleware, on the same pino logger as Nest's and the application's lines. */
export class AccessLog {
  constructor(readonly middleware: AccessLogMiddleware) {}
}

/**
 * JSON lines on stdout, or on stderr where stdout is an interface (the CLI prints its result there),
 * with the trace and span ids of the line's span when tracing is on.
 */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(level: LogLevel, output: 'stdout' | 'stderr' = 'stdout'): DynamicModule {
    const logger = pino({ level, mixin: traceFields }, pino.destination(output === 'stdout' ? 1 : 2));
    return LoggingModule.on(logger);
  }

  /** The same module writing to a logger of the caller's (a test's capture). */
  static on(logger: Pino): DynamicModule {
    return {
      module: LoggingModule,
      // No per-request middleware of nestjs-pino (a router layer and an AsyncLocalStorage scope on
      // every request): the access line carries the request, errors their `reqId`.
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true, forRoutes: [] })],
      providers: [
        ServiceLogger,
        { provide: AccessLog, useValue: new AccessLog(createAccessLog(logger)) },
        { provide: OperatorLog, useValue: new PinoOperatorLog(logger) },
      ],
      exports: [ServiceLogger, AccessLog, OperatorLog, LoggerModule],
    };
  }
}

import { DynamicModule, Global, Inject, Injectable, Module } from '@nestjs/common';
import { trace } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Logger, LoggerModule, PARAMS_PROVIDER_TOKEN, type Params, PinoLogger } from 'nestjs-pino';
import pino, { type Level, type Logger as Pino } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
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
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** What the guard leaves on an authenticated request (read structurally: platform/auth depends on logging). */
interface CallerOfRequest {
  caller?: { workspaceSId: string; keyId: string };
}

/**
 * The access log: one line per request once it is answered or the client has gone, with the route
 * template, the workspace and the key that called. Only the id, method and URL (its signature
 * redacted) of the request are written: never its headers (the bearer key) nor its query.
 */
export function createAccessLog(logger: Pino): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const id = requestId(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (_req, res, error): Level =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    customSuccessMessage: (_req, res) => (res.writableFinished ? 'request completed' : 'request aborted'),
    customErrorMessage: (_req, res) => (res.writableFinished ? 'request completed' : 'request aborted'),
    customProps: (req: IncomingMessage, res: ServerResponse) => {
      if (!res.headersSent) return {};
      const { caller } = req as CallerOfRequest;
      return {
        route: routeTemplateOf(req),
        ...(caller ? { workspace: caller.workspaceSId, keyId: caller.keyId } : {}),
      };
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: withoutSignature(req.url),
      }),
      res: (res: { statusCode: number; raw?: ServerResponse }) => ({
        statusCode: res.statusCode,
        finished: res.raw?.writableFinished ?? true,
      }),
    },
    wrapSerializers: true,
  });
}

/** The access log's middleware, on the same pino logger as Nest's and the application's lines. */
export class AccessLog {
  constructor(readonly middleware: HttpLogger) {}
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
      imports: [LoggerModule.forRoot({ pinoHttp: { logger }, useExisting: true })],
      providers: [
        ServiceLogger,
        { provide: AccessLog, useValue: new AccessLog(createAccessLog(logger)) },
        { provide: OperatorLog, useValue: new PinoOperatorLog(logger) },
      ],
      exports: [ServiceLogger, AccessLog, OperatorLog, LoggerModule],
    };
  }
}

import { DynamicModule, Global, LoggerService, Module } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Level, type Logger } from 'pino';
import type { LogLevel } from 'src/platform/config/platform.config';
import type { IdentifiedRequest } from 'src/platform/logging/request-id';
import { OperatorLog, PinoOperatorLog } from 'src/platform/logging/operator-log';

/** A signed URL is a credential until it expires: its signature never reaches the logs. */
function withoutSignature(url: string): string {
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

/**
 * Nest's logger interface on pino: JSON lines, with Nest's context as `context`. Nest's Logger
 * passes the context last; an object first is pino's merge object (`logger.warn({ err }, 'text')`).
 */
export class AppLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    this.write(
      typeof context === 'string' && STARTUP_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      params,
    );
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** The access log line of each request, once its answer is finished or the client has gone. */
  logRequest(req: IncomingMessage, res: ServerResponse): void {
    const startedAt = performance.now();
    res.once('close', () => {
      const level: Level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
      if (!this.pino.isLevelEnabled(level)) return;
      this.pino[level](
        {
          req: {
            id: (req as IdentifiedRequest).id,
            method: req.method,
            url: withoutSignature(req.url ?? ''),
          },
          res: { statusCode: res.statusCode, finished: res.writableFinished },
          responseTime: Math.round(performance.now() - startedAt),
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const rest = [...params];
    const context = rest.length > 0 && typeof rest.at(-1) === 'string' ? rest.pop() : undefined;
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      this.pino[level]({ context, ...message }, typeof rest[0] === 'string' ? rest[0] : undefined);
    } else if (message instanceof Error) {
      this.pino[level]({ context, err: message }, message.message);
    } else {
      // Nest's own `error(message, stack, context)`.
      const stack = level === 'error' && typeof rest[0] === 'string' ? rest[0] : undefined;
      this.pino[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}

/** JSON lines on stdout, or on stderr where stdout is an interface (the CLI prints its result there). */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(level: LogLevel, output: 'stdout' | 'stderr' = 'stdout'): DynamicModule {
    const logger = pino({ level }, pino.destination(output === 'stdout' ? 1 : 2));
    return {
      module: LoggingModule,
      providers: [
        { provide: AppLogger, useValue: new AppLogger(logger) },
        { provide: OperatorLog, useValue: new PinoOperatorLog(logger) },
      ],
      exports: [AppLogger, OperatorLog],
    };
  }
}

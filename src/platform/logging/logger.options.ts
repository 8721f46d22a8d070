import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { destination } from 'pino';
import type { Options } from 'pino-http';
import type { LogLevel } from 'src/platform/config/app-config';

/** A signed URL is a credential until it expires: its signature never reaches the logs. */
function withoutSignature(url: string): string {
  return url.replace(/([?&]signature=)[^&]*/g, '$1[Redacted]');
}

/** JSON lines on stdout, or on stderr where stdout is an interface (the CLI prints its result there). */
export function loggerOptions(level: LogLevel, output: 'stdout' | 'stderr' = 'stdout'): Params {
  const options: Options = {
    level,
    // The request id is Fastify's (see request-id.ts), which pino-http finds on the request.
    // Secrets never reach the logs.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.query.signature'],
    customLogLevel: (_req, res, error) =>
      error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        url: withoutSignature(req.url),
      }),
      // Fastify hands its headers to writeHead, so the response object no longer lists them.
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
  return {
    pinoHttp: [options, destination(output === 'stdout' ? 1 : 2)],
    // nestjs-pino's default route pattern matches nothing under Nest's Fastify adapter; this matches every request.
    forRoutes: [{ path: '*', method: RequestMethod.ALL }],
  };
}

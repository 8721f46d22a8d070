import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import { destination } from 'pino';
import type { Options } from 'pino-http';
import type { LogLevel } from 'src/platform/config/app-config';

const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is sane, otherwise makes one; echoes it on the response. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const id = typeof given === 'string' && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/** A signed URL is a credential until it expires: its signature never reaches the logs. */
function withoutSignature(url: string): string {
  return url.replace(/([?&]signature=)[^&]*/g, '$1[Redacted]');
}

/** JSON lines on stdout, or on stderr where stdout is an interface (the CLI prints its result there). */
export function loggerOptions(level: LogLevel, output: 'stdout' | 'stderr' = 'stdout'): Params {
  const options: Options = {
    level,
    genReqId: requestId,
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
    },
  };
  return { pinoHttp: [options, destination(output === 'stdout' ? 1 : 2)] };
}

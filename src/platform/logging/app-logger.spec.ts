import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { PinoLogger } from 'nestjs-pino';
import pino from 'pino';
import { ServiceLogger, createAccessLog } from 'src/platform/logging/app-logger';
import { untilTrue } from 'test/support/until';

/** A pino logger whose JSON lines are kept in memory. */
function capture(level: pino.LevelWithSilent = 'info'): {
  logger: pino.Logger;
  lines: () => Record<string, unknown>[];
} {
  const written: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      written.push(chunk.toString());
      done();
    },
  });
  return {
    logger: pino({ level }, sink),
    lines: () =>
      written
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('access log', () => {
  const { logger, lines } = capture();
  const accessLog = createAccessLog(logger);
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // What Express and the auth guard leave on a request: its route and its caller.
    server = createServer((req, res) => {
      accessLog(req, res);
      const url = new URL(req.url ?? '/', 'http://local');
      const status = Number(url.searchParams.get('status') ?? 200);
      if (url.pathname.startsWith('/api/w/')) {
        Object.assign(req as IncomingMessage & Record<string, unknown>, {
          route: { path: '/api/w/:wId/files/:fileId' },
          caller: { workspaceSId: 'w1', keyId: 'key_42' },
        });
      }
      res.statusCode = status;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function call(path: string, headers: Record<string, string> = {}): Promise<Response> {
    const before = lines().length;
    const response = await fetch(`${base}${path}`, { headers });
    await response.text();
    // The line is written when the response closes, just after the client has the body.
    await untilTrue(() => lines().length > before);
    return response;
  }

  it('writes one line per request: id, method, URL, route template, status, workspace, key, at the level of the status', async () => {
    const ok = await call('/api/w/w1/files/fil_1', { 'X-Request-Id': 'req-7' });
    await call('/nowhere?status=404');
    await call('/boom?status=500');
    expect(ok.headers.get('x-request-id')).toBe('req-7');
    expect(
      lines()
        .slice(-3)
        .map(({ level, req, res, route, workspace, keyId, msg }) => ({
          level,
          req: { ...(req as object), id: undefined },
          res,
          route,
          workspace,
          keyId,
          msg,
        })),
    ).toEqual([
      {
        level: 30,
        req: { method: 'GET', url: '/api/w/w1/files/fil_1' },
        res: { statusCode: 200, finished: true },
        route: '/api/w/:wId/files/:fileId',
        workspace: 'w1',
        keyId: 'key_42',
        msg: 'request completed',
      },
      {
        level: 40,
        req: { method: 'GET', url: '/nowhere?status=404' },
        res: { statusCode: 404, finished: true },
        msg: 'request completed',
      },
      {
        level: 50,
        req: { method: 'GET', url: '/boom?status=500' },
        res: { statusCode: 500, finished: true },
        msg: 'request completed',
      },
    ]);
    expect(lines().at(-3)?.req).toMatchObject({ id: 'req-7' });
  });

  it('never writes the signature of a signed URL, nor the Authorization header', async () => {
    await call('/api/w/w1/files/fil_1?expires=1&signature=c2VjcmV0&x=1', {
      Authorization: 'Bearer sk-very-secret',
    });
    const line = lines().at(-1);
    expect(line?.req).toMatchObject({ url: '/api/w/w1/files/fil_1?expires=1&signature=[Redacted]&x=1' });
    expect(JSON.stringify(lines())).not.toContain('c2VjcmV0');
    expect(JSON.stringify(lines())).not.toContain('sk-very-secret');
  });
});

describe('ServiceLogger', () => {
  /** Nest's logger on nestjs-pino's, outside any request (its root logger). */
  function serviceLogger(logger: pino.Logger): ServiceLogger {
    const pinoLogger = { info: logger.info.bind(logger), debug: logger.debug.bind(logger) };
    return new ServiceLogger(pinoLogger as unknown as PinoLogger, {});
  }

  it("keeps Nest's start-up narration below info, and every other log call at info", () => {
    const { logger, lines } = capture('info');
    const nest = serviceLogger(logger);
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    nest.log('Nest application successfully started', 'NestApplication');
    nest.log('Resumed 1 agent run(s)', 'AgentRunner');
    expect(lines().map(({ level, context, msg }) => ({ level, context, msg }))).toEqual([
      { level: 30, context: 'AgentRunner', msg: 'Resumed 1 agent run(s)' },
    ]);
  });

  it('writes the narration at debug when the level lets it through', () => {
    const { logger, lines } = capture('debug');
    serviceLogger(logger).log('Mapped {/healthz, GET} route', 'RouterExplorer');
    expect(lines().map(({ level, context }) => ({ level, context }))).toEqual([
      { level: 20, context: 'RouterExplorer' },
    ]);
  });
});
